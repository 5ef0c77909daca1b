import type { Session } from "../../session/credentials";
import { displayName, initials } from "../../session/sessionUser";
import { useSignOut } from "../../session/useSignOut";
import { accentFillClass } from "../styles";
import { DropdownMenu } from "./DropdownMenu";
import type { MenuEntry } from "./MenuList";
import { accountLinks } from "./navModel";
import type { NavMenuDispatch, NavMenuState } from "./useNavMenus";

/**
 * The initials are a picture of the user, not words: drawn as generated content, they stay out of
 * the text of the button around them, whose name ("Account menu for …") then contains all of its
 * visible text (WCAG 2.5.3), which speech users say to press it.
 */
export function Avatar({ session }: { session: Session }) {
  return (
    <span
      aria-hidden="true"
      data-initials={initials(session.user)}
      className={`flex h-8 w-8 items-center justify-center rounded-full text-xs font-bold before:content-[attr(data-initials)] ${accentFillClass}`}
    />
  );
}

interface UserMenuProps {
  session: Session;
  state: NavMenuState;
  dispatch: NavMenuDispatch;
}

export function UserMenu({ session, state, dispatch }: UserMenuProps) {
  const signOut = useSignOut();
  const name = displayName(session.user);
  const entries: MenuEntry[] = [
    ...accountLinks.map((link) => ({ kind: "link" as const, label: link.label, to: link.to })),
    { kind: "action", label: "Sign Out", onSelect: signOut },
  ];
  return (
    <DropdownMenu
      id="user"
      align="right"
      triggerLabel={`Account menu for ${name}`}
      trigger={
        <>
          <Avatar session={session} />
          <span className="hidden max-w-32 truncate lg:inline">{session.user.firstName || name}</span>
        </>
      }
      header={
        <div className="border-b border-slate-200 px-4 py-3 dark:border-slate-700">
          <p className="truncate text-sm font-semibold text-slate-900 dark:text-white">{name}</p>
          <p className="truncate text-xs text-slate-600 dark:text-slate-400">{session.user.email}</p>
        </div>
      }
      entries={entries}
      state={state}
      dispatch={dispatch}
    />
  );
}
