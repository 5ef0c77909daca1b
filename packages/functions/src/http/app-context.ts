import type { StreamCredential } from "@fintech/core/auth/credentials";
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
  /** When the session token expires (epoch seconds); set for a session token only. */
  sessionExpiresAt?: number;
  /** The session or API key behind the request (a stream ticket's too), for re-checks while a stream is open. */
  credential: StreamCredential;
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
