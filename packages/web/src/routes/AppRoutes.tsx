import { lazy, useEffect, type ComponentType } from "react";
import { Navigate, Route, Routes } from "react-router-dom";
import { RequireAuth } from "../auth/RequireAuth";
import { PRODUCT_NAME } from "../constants";
import { BareLayout, HeaderOnlyLayout, StandardLayout } from "../layouts/Layouts";
import type { LayoutKind } from "./routeMeta";
import { routeTable, type RouteEntry } from "./routeTable";

const LAYOUTS: Record<LayoutKind, ComponentType> = {
  standard: StandardLayout,
  "header-only": HeaderOnlyLayout,
  none: BareLayout,
};

// Created once at module load: React.lazy must not be called during render.
const screens = new Map(routeTable.map((entry) => [entry.path, lazy(entry.load)]));

function Screen({ entry }: { entry: RouteEntry }) {
  const Component = screens.get(entry.path);
  useEffect(() => {
    document.title = entry.path === "/" ? PRODUCT_NAME : `${entry.title} · ${PRODUCT_NAME}`;
  }, [entry]);
  return Component ? <Component /> : null;
}

const routesOf = (entries: readonly RouteEntry[]) =>
  entries.map((entry) => <Route key={entry.path} path={entry.path} element={<Screen entry={entry} />} />);

export function AppRoutes() {
  return (
    <Routes>
      {(Object.keys(LAYOUTS) as LayoutKind[]).map((kind) => {
        const Layout = LAYOUTS[kind];
        const entries = routeTable.filter((entry) => entry.layout === kind);
        const open = entries.filter((entry) => !entry.guarded);
        const guarded = entries.filter((entry) => entry.guarded);
        return (
          <Route key={kind} element={<Layout />}>
            {routesOf(open)}
            {guarded.length > 0 && <Route element={<RequireAuth />}>{routesOf(guarded)}</Route>}
          </Route>
        );
      })}
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}
