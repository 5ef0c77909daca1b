import { DocsScreen } from "../developers/docs/DocsScreen";

/** /developers/docs: the documentation guides (spec 001 §2). */
export default function DocsPage() {
  return <DocsScreen />;
}
