import { TestSuiteScreen } from "../api-test-suite/TestSuiteScreen";

export default function GrpcTestPage() {
  return <TestSuiteScreen />;
}
