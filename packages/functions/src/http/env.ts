import type { PublicUser, Role } from "@fintech/core/auth/model";
import type { RequestMetrics } from "@fintech/core/metrics/recorder";
import type { CoreContext } from "@fintech/core/shared/context";
import type { Logger } from "@fintech/core/shared/logger";

export interface AuthInfo {
  userId: string;
  role: Role;
  user: PublicUser;
  /** Set when the request authenticated with an API key rather than a session token. */
  apiKeyId?: string;
}

/** Hono's typing of what middleware puts on the context. */
export interface AppEnv {
  Variables: {
    core: CoreContext;
    requestId: string;
    logger: Logger;
    auth: AuthInfo;
    /** This process's request metrics (set by recordRequestMetrics), read by the status routes. */
    metrics: RequestMetrics;
  };
}
