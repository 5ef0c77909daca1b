/**
 * SAMPLE DATA. The connect-account wizard's countries and bank providers
 * (docs/product/ledger-workspace.md#connect-account-wizard: USA 6, UK 5, Brazil 4, India 5,
 * Germany 4, each plus manual entry). The banks are fictional and the connection is simulated:
 * choosing one opens an authorisation step that only pre-fills the form; the account itself is
 * created in the ledger like a manual one. The logos are small inline SVG monograms (no external
 * URLs), rendered as data: images.
 */
import type { FormCurrency } from "../api/types";

export interface BankProvider {
  id: string;
  name: string;
  /** A self-contained SVG document. */
  logo: string;
  /** Letters used for pre-filled account numbers, e.g. "HNB". */
  code: string;
}

export interface ConnectCountry {
  code: "US" | "GB" | "BR" | "IN" | "DE";
  name: string;
  /** The currency the form starts with for this country (the form offers USD, EUR, GBP). */
  currency: FormCurrency;
  providers: BankProvider[];
}

/** A rounded-square monogram logo: background colour, text colour, up to three letters. */
function monogram(letters: string, background: string, foreground = "#ffffff"): string {
  const size = letters.length > 2 ? 13 : 16;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40" width="40" height="40">` +
    `<rect width="40" height="40" rx="10" fill="${background}"/>` +
    `<path d="M6 31h28" stroke="${foreground}" stroke-opacity=".35" stroke-width="2" stroke-linecap="round"/>` +
    `<text x="20" y="25" text-anchor="middle" font-family="Arial,Helvetica,sans-serif" font-weight="700" font-size="${size}" fill="${foreground}">${letters}</text>` +
    `</svg>`
  );
}

const provider = (id: string, name: string, code: string, background: string, foreground?: string): BankProvider => ({
  id,
  name,
  code,
  logo: monogram(code, background, foreground),
});

export const CONNECT_COUNTRIES: readonly ConnectCountry[] = [
  {
    code: "US",
    name: "USA",
    currency: "USD",
    providers: [
      provider("harbor-national", "Harbor National Bank", "HNB", "#1d4ed8"),
      provider("summit-trust", "Summit Trust", "ST", "#047857"),
      provider("prairie-federal", "Prairie Federal Credit Union", "PFC", "#b45309"),
      provider("golden-gate", "Golden Gate Savings", "GGS", "#be123c"),
      provider("lakeshore", "Lakeshore Bank", "LB", "#0e7490"),
      provider("redwood", "Redwood Financial", "RF", "#7c2d12"),
    ],
  },
  {
    code: "GB",
    name: "UK",
    currency: "GBP",
    providers: [
      provider("thames", "Thames & Co Bank", "TC", "#1e3a8a"),
      provider("northern-crown", "Northern Crown Building Society", "NCB", "#6d28d9"),
      provider("albion", "Albion Bank", "AB", "#0f766e"),
      provider("pennine", "Pennine Savings", "PS", "#9a3412"),
      provider("kensington", "Kensington Private", "KP", "#111827", "#facc15"),
    ],
  },
  {
    code: "BR",
    name: "Brazil",
    currency: "USD",
    providers: [
      provider("banco-ipe", "Banco Ipê", "BI", "#a21caf"),
      provider("banco-atlantico", "Banco Atlântico", "BA", "#0369a1"),
      provider("caixa-sol", "Caixa Sol", "CS", "#ca8a04", "#111827"),
      provider("nuvem", "Nuvem Digital", "ND", "#7e22ce"),
    ],
  },
  {
    code: "IN",
    name: "India",
    currency: "USD",
    providers: [
      provider("ganga", "Ganga Bank", "GB", "#1e40af"),
      provider("deccan", "Deccan Co-operative Bank", "DCB", "#b91c1c"),
      provider("indus-capital", "Indus Capital Bank", "ICB", "#115e59"),
      provider("lotus", "Lotus Bank", "LB", "#db2777"),
      provider("monsoon", "Monsoon Payments Bank", "MPB", "#4338ca"),
    ],
  },
  {
    code: "DE",
    name: "Germany",
    currency: "EUR",
    providers: [
      provider("rheinbank", "Rheinbank", "RB", "#1f2937", "#fbbf24"),
      provider("hansebank", "Hansebank", "HB", "#b91c1c"),
      provider("schwarzwald", "Schwarzwald Kreditbank", "SK", "#166534"),
      provider("spree", "Spree Digital", "SD", "#0891b2"),
    ],
  },
];

/** The logo as an <img> source. */
export const logoSource = (svg: string): string => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
