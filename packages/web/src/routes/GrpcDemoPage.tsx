import { PlaceholderScreen } from "../components/PlaceholderScreen";

export default function GrpcDemoPage() {
  return <PlaceholderScreen title="gRPC streaming demo" arrivesWith="streaming demo" />;
}
