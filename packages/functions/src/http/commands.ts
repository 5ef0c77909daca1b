import type { Context } from "hono";
import { z } from "zod";
import { badRequest, isAppError } from "@fintech/core/shared/errors";
import type { AppEnv } from "./app-context";
import { assertCommandScope, isInsufficientScope } from "./scopes";
import { parseWith, readJson } from "./validate";

/**
 * The gRPC-style command routes of the streams (ledger, KYC, payments): one command per
 * request, `{command: {<name>: {...arguments}}}`. A refusal of any kind is answered as
 * docs/api.md#api-overview words it ("Ledger command failed", "KYC command failed", "Payment
 * command failed") with the underlying reason, code, status and headers (e.g. Retry-After).
 */
export const CommandEnvelope = z.object({
  command: z
    .record(z.string(), z.record(z.string(), z.unknown(), { error: "Command arguments must be an object" }), {
      error: "Body must be {command: {<name>: {...arguments}}}",
    })
    .refine((command) => Object.keys(command).length === 1, "Send exactly one command"),
});

export async function handleCommand<Name extends string>(
  c: Context<AppEnv>,
  commands: readonly Name[],
  failureMessage: string,
  run: (name: Name, args: Record<string, unknown>) => Promise<unknown>,
) {
  try {
    const { command } = parseWith(CommandEnvelope, await readJson(c));
    const [name, args] = Object.entries(command)[0]!;
    if (!(commands as readonly string[]).includes(name))
      throw badRequest(`Unknown command ${name.slice(0, 64)}; commands are ${commands.join(", ")}`, "unknown_command");
    assertCommandScope(c, name);
    return c.json({ command: name, result: await run(name as Name, args) }, 200);
  } catch (error) {
    if (!isAppError(error)) throw error;
    for (const [header, value] of Object.entries(error.headers)) c.header(header, value);
    return c.json(
      {
        message: failureMessage,
        reason: error.message,
        code: error.code,
        ...(isInsufficientScope(error) ? { scope: error.scope } : {}),
      },
      error.status,
    );
  }
}
