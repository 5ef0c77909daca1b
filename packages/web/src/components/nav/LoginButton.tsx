import { loadAuthDialog, useAuthModal } from "../../auth/authModalContext";
import { primaryButtonClass } from "../styles";

export function LoginButton({ className = "" }: { className?: string }) {
  const { openAuthModal } = useAuthModal();
  const preload = () => void loadAuthDialog();
  return (
    <button
      type="button"
      onClick={() => openAuthModal("login")}
      onPointerEnter={preload}
      onFocus={preload}
      className={`${primaryButtonClass} ${className}`}
    >
      Login
    </button>
  );
}
