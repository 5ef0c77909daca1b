import { TreasuryConsole } from "../treasury/TreasuryConsole";

/** /treasury: rates and their history, quotes and conversions; admins also set rates, import the ECB file, read positions and revenue. */
export default function TreasuryPage() {
  return <TreasuryConsole />;
}
