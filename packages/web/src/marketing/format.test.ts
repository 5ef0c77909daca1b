import { describe, expect, it } from "vitest";
import { healthFailure, type HealthReply } from "../api/health";
import { healthPanelModel } from "./format";

const ok: HealthReply = {
  status: "ok",
  message: "All systems operational",
  time: "2026-01-01T00:00:00Z",
  timestamp: 1,
  database: { connected: true, error: null, max_open_connections: 50, open_connections: 4, in_use: 1, idle: 3 },
};

describe("healthPanelModel", () => {
  it("is loading before the first reply", () => {
    expect(healthPanelModel({ loading: true, health: null, error: null }).tone).toBe("loading");
  });

  it("shows the real figures and the rounded utilisation", () => {
    const model = healthPanelModel({ loading: false, health: ok, error: null });
    expect(model).toMatchObject({
      tone: "ok",
      status: "ok",
      statusLabel: "Healthy",
      message: "All systems operational",
      connected: true,
    });
    expect(model.stats).toEqual({ maxConnections: 50, openConnections: 4, inUse: 1, idle: 3, utilization: 2 });
  });

  it("maps degraded and anything else", () => {
    expect(healthPanelModel({ loading: false, health: { ...ok, status: "degraded" }, error: null }).tone).toBe(
      "degraded",
    );
    expect(healthPanelModel({ loading: false, health: { ...ok, status: "down" }, error: null })).toMatchObject({
      tone: "error",
      statusLabel: "Unavailable",
    });
  });

  it("shows 'Unable to connect to backend' when the check failed", () => {
    const model = healthPanelModel({ loading: false, health: healthFailure(), error: "HTTP error! status: 502" });
    expect(model).toMatchObject({
      tone: "error",
      message: "Unable to connect to backend",
      connected: false,
      stats: null,
      detail: "HTTP error! status: 502",
    });
  });
});
