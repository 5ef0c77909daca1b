import { PlaceholderScreen } from "../components/PlaceholderScreen";

export default function AboutPage() {
  return (
    <PlaceholderScreen
      title="About the creator"
      product="The creator's portfolio"
      willDo="a short introduction, a professional journey of past roles, the technical expertise behind this platform, and ways to get in touch."
    />
  );
}
