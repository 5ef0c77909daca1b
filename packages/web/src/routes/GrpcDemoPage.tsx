import { StreamingDemoScreen } from "../streaming-demo/StreamingDemoScreen";

export default function GrpcDemoPage() {
  return <StreamingDemoScreen />;
}
