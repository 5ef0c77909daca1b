import { PlaceholderScreen } from "../components/PlaceholderScreen";

export default function GrpcTestPage() {
  return <PlaceholderScreen title="gRPC test suite" arrivesWith="test suite" />;
}
