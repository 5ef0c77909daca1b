import { DocsScreen } from "../developers/docs/DocsScreen";

/** /developers/docs: the documentation guides (docs/product/developer-tools.md#documentation). */
export default function DocsPage() {
  return <DocsScreen />;
}
