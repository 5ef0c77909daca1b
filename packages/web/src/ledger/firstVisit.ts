import { useEffect, useState } from "react";

/**
 * "Welcome, Ada" the first time someone opens the workspace, "Welcome back, Ada" afterwards.
 * A visit is remembered per user in localStorage; someone who already has accounts (made on
 * another device, say) is a returning user even without the flag.
 */
export const visitedKey = (userId: string): string => `ledger.visited.${userId}`;

export const greeting = (firstName: string, firstVisit: boolean): string =>
  `${firstVisit ? "Welcome" : "Welcome back"}, ${firstName}`;

function readVisited(userId: string | null): boolean {
  if (!userId) return false;
  try {
    return localStorage.getItem(visitedKey(userId)) !== null;
  } catch {
    // Storage can be disabled; then every visit greets like a first one, which is harmless.
    return false;
  }
}

/** Whether this is the user's first visit; the visit is recorded once the workspace has shown. */
export function useFirstVisit(userId: string | null, hasAccounts: boolean): boolean {
  // Read once per mount: the flag written below must not flip the heading while it is on screen.
  const [visitedBefore] = useState(() => readVisited(userId));
  useEffect(() => {
    if (!userId) return;
    try {
      localStorage.setItem(visitedKey(userId), new Date().toISOString());
    } catch {
      // See readVisited.
    }
  }, [userId]);
  return !visitedBefore && !hasAccounts;
}
