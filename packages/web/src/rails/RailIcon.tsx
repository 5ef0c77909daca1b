import type { RailType } from "@fintech/core/rails/model";
import { Icon } from "../components/icons";

/**
 * A line icon per rail type. The rails' own `icon` field is an emoji, which needs a colour emoji
 * font the machine may lack (it renders as an empty box): the console draws these instead.
 */
const PATHS: Record<RailType, string> = {
  // A bank building.
  ACH: "M3 10h18M5 10v8M9.5 10v8M14.5 10v8M19 10v8M3 21h18M12 3l9 5H3z",
  // A lightning bolt: same-day.
  Wire: "M13 2L4 14h7l-1 8 9-12h-7z",
  // A card.
  Card: "M2 6h20v12H2zM2 10h20M6 15h4",
  // A coin with a mark.
  Crypto:
    "M12 2a10 10 0 1 0 0 20a10 10 0 1 0 0-20M9 7h5a2.5 2.5 0 0 1 0 5H9zM9 12h6a2.5 2.5 0 0 1 0 5H9zM9 7v10M11 5v2M11 17v2",
  // A globe.
  SWIFT: "M12 2a10 10 0 1 0 0 20a10 10 0 1 0 0-20M2 12h20M12 2a15 15 0 0 1 0 20M12 2a15 15 0 0 0 0 20",
  // A euro sign.
  SEPA: "M18 6.5A7 7 0 1 0 18 17.5M4 10h10M4 14h10",
  // A phone: instant mobile payments.
  UPI: "M7 2h10v20H7zM11 18h2",
};

export function RailIcon({ type }: { type: RailType }) {
  return (
    <Icon width="22" height="22">
      <path d={PATHS[type] ?? PATHS.ACH} />
    </Icon>
  );
}
