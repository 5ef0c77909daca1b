import { Link } from "react-router-dom";
import { PRODUCT_NAME } from "../constants";
import { LogoMark } from "./icons";

const COLUMNS = [
  {
    title: "Platform",
    links: [
      { label: "Core Ledger", to: "/ledger" },
      { label: "KYC & Compliance", to: "/kyc" },
      { label: "Payment Rails", to: "/payment-rails" },
      { label: "System Status", to: "/status" },
    ],
  },
  {
    title: "Developers",
    links: [
      { label: "Developer Hub", to: "/developers" },
      { label: "API Explorer", to: "/developers/api-explorer" },
      { label: "Documentation", to: "/developers/docs" },
      { label: "gRPC Streaming Demo", to: "/grpc-demo" },
    ],
  },
  {
    title: "Company",
    links: [{ label: "About the Creator", to: "/about" }],
  },
] as const;

/** The standard layout's footer. Links go to real screens only; the marketing footer of spec
 * §2.5 (newsletter, social, certifications) arrives with the home page issue. */
export function Footer() {
  return (
    <footer className="border-t border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-12 sm:px-6 md:grid-cols-4">
        <div>
          <Link to="/" className="flex items-center gap-2 rounded-lg text-lg font-bold text-slate-900 dark:text-white">
            <LogoMark />
            {PRODUCT_NAME}
          </Link>
          <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
            Ledger, payments, KYC and developer tooling for production-ready fintech applications.
          </p>
        </div>
        {COLUMNS.map((column) => (
          <nav key={column.title} aria-label={`${column.title} links`}>
            <h2 className="text-sm font-semibold text-slate-900 dark:text-white">{column.title}</h2>
            <ul className="mt-3 space-y-2">
              {column.links.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} className="text-sm text-slate-600 hover:text-indigo-700 dark:text-slate-400 dark:hover:text-indigo-300">
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-slate-200 py-6 text-center text-xs text-slate-600 dark:border-slate-800 dark:text-slate-400">
        © {new Date().getFullYear()} {PRODUCT_NAME}
      </div>
    </footer>
  );
}
