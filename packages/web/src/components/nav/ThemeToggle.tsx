import { useTheme } from "../../session/hooks";
import { oppositeTheme } from "../../session/theme";
import { themeStore } from "../../session/themeStore";
import { MoonIcon, SunIcon } from "../icons";
import { iconButtonClass } from "../styles";

export function ThemeToggle() {
  const theme = useTheme();
  const next = oppositeTheme(theme);
  return (
    <button
      type="button"
      onClick={() => themeStore.toggle()}
      aria-label={`Switch to ${next} theme`}
      title={`Switch to ${next} theme`}
      className={iconButtonClass}
    >
      {theme === "dark" ? <SunIcon /> : <MoonIcon />}
    </button>
  );
}
