/** Per-stage settings: what differs between production, shared and preview stages. */
export interface StageSettings {
  stage: string;
  isProduction: boolean;
  /** Keep data when the stack is removed. */
  retainData: boolean;
  logRetentionDays: number;
  logLevel: "debug" | "info" | "warn" | "error";
  /** Test balances (free money) are only ever offered outside production. */
  allowTestBalance: boolean;
  /**
   * Browser origins, besides the site's own, allowed to call the API and upload KYC documents.
   * Outside production this admits the Vite dev server and the local one-port server so a
   * laptop can work against a cloud stage. `DEPLOY_CORS_ORIGINS` overrides it at deploy time
   * (stacks/settings.ts).
   */
  corsOrigins: string[];
}

/** Origins of the local dev servers (Vite and infra/local's one-port server). */
export const LOCAL_ORIGINS = ["http://localhost:5173", "http://localhost:3000"] as const;

export const PRODUCTION_STAGES = ["production", "prod"] as const;

export function stageSettings(stage: string): StageSettings {
  const isProduction = (PRODUCTION_STAGES as readonly string[]).includes(stage);
  return {
    stage,
    isProduction,
    retainData: isProduction,
    logRetentionDays: isProduction ? 365 : 14,
    logLevel: isProduction ? "info" : "debug",
    allowTestBalance: !isProduction,
    corsOrigins: isProduction ? [] : [...LOCAL_ORIGINS],
  };
}
