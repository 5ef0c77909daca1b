import { PlaceholderScreen } from "../components/PlaceholderScreen";

export default function GrpcDemoPage() {
  return (
    <PlaceholderScreen
      title="gRPC streaming demo"
      product="The streaming demo"
      willDo="connect to the event stream and watch payments, risk checks and reconciliation results arrive as they happen, with a webhook debugger and a connection test."
    />
  );
}
