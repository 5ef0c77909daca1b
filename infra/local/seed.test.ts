import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findUserByEmail } from "@fintech/core/auth/users";
import type { CoreContext } from "@fintech/core/shared/context";
import { DEFAULT_ADMIN_NAME, seedAdminFromEnv } from "./seed";
import { createTestContext } from "@fintech/testing/context";

let core: CoreContext & { dispose(): Promise<void> };

beforeAll(async () => {
  core = await createTestContext();
});

afterAll(async () => {
  await core.dispose();
});

describe("the bootstrapped admin", () => {
  it("is named like a person by default, never after a product area", async () => {
    const result = await seedAdminFromEnv(core, {
      ADMIN_EMAIL: "first-admin@example.com",
      ADMIN_PASSWORD: "admin password 1",
    });
    expect(result?.user).toMatchObject({
      first_name: DEFAULT_ADMIN_NAME.first,
      last_name: DEFAULT_ADMIN_NAME.last,
      role: "admin",
    });
    expect(DEFAULT_ADMIN_NAME.first).not.toMatch(/platform|admin|system/i);
  });

  it("takes the name given on the command line or in the environment", async () => {
    await seedAdminFromEnv(core, {
      ADMIN_EMAIL: "named-admin@example.com",
      ADMIN_PASSWORD: "admin password 1",
      ADMIN_FIRST_NAME: "Ada",
      ADMIN_LAST_NAME: "Lovelace",
    });
    const stored = await findUserByEmail(core.db, "named-admin@example.com");
    expect(stored).toMatchObject({ first_name: "Ada", last_name: "Lovelace", role: "admin" });
  });

  it("treats an empty name as none given", async () => {
    const result = await seedAdminFromEnv(core, {
      ADMIN_EMAIL: "blank-admin@example.com",
      ADMIN_PASSWORD: "admin password 1",
      ADMIN_FIRST_NAME: "",
      ADMIN_LAST_NAME: "",
    });
    expect(result?.user).toMatchObject({ first_name: DEFAULT_ADMIN_NAME.first, last_name: DEFAULT_ADMIN_NAME.last });
  });
});
