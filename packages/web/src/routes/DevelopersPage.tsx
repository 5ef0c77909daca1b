import { PlaceholderScreen } from "../components/PlaceholderScreen";

export default function DevelopersPage() {
  return <PlaceholderScreen title="Developer hub" arrivesWith="developer hub" />;
}
