import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { errorMessage } from "../api/errors";
import { secondaryButtonClass } from "../components/styles";
import { errorTextClass, Spinner, subtleTextClass } from "../ledger/ui";

/**
 * A query's three states on screen: a spinner while it loads (aria-busy), the failure with Try
 * again, or the content once there is data (kept while a refetch runs or fails). `what` names the
 * data in both texts ("the rails": "Loading the rails…", "Failed to load the rails").
 */
export function Loaded<T>({
  query,
  what,
  errorFrame = "",
  children,
}: {
  query: UseQueryResult<T>;
  what: string;
  errorFrame?: string;
  children: (data: T) => ReactNode;
}) {
  if (query.data !== undefined) return <>{children(query.data)}</>;
  if (query.isError)
    return (
      <div className={errorFrame}>
        <p role="alert" className={errorTextClass}>
          {errorMessage(query.error, `Failed to load ${what}`)}
        </p>
        <button type="button" className={`${secondaryButtonClass} mt-3`} onClick={() => void query.refetch()}>
          Try again
        </button>
      </div>
    );
  return (
    <p aria-busy="true" className={subtleTextClass}>
      <Spinner label={`Loading ${what}…`} />
    </p>
  );
}
