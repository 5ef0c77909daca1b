import { PlaceholderScreen } from "../components/PlaceholderScreen";

export default function GrpcTestPage() {
  return (
    <PlaceholderScreen
      title="gRPC test suite"
      product="The API test suite"
      willDo="check the connection to the backend and run every API check in one go, with the response of each one to inspect."
    />
  );
}
