import { GetCommand, TransactWriteCommand, type TransactWriteCommandInput } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import type { Database } from "../shared/dynamo";
import { cancellationCodes } from "../shared/dynamo";
import { conflict, notFound } from "../shared/errors";
import { emailKey, userKey, usersIndex } from "./keys";
import { AUTH_MESSAGES, PublicUser, Role } from "./model";

/**
 * The stored user: the public fields, the password hash and the state of the user's sessions
 * (sessions.ts), which rides on this item so that checking a session costs no extra read.
 */
export const StoredUser = PublicUser.omit({ email_verified: true }).extend({
  password_hash: z.string(),
  /** When the owner used a link mailed to `email` (verification, reset, email change); absent: not yet. */
  email_verified_at: z.string().nullish(),
  /** Signed-out session ids and when their tokens expire (epoch seconds); pruned as they expire. */
  revoked_sessions: z.record(z.string(), z.number()).optional(),
  /** Sessions of an older epoch are over ("sign out everywhere"). */
  session_epoch: z.number().int().nonnegative().optional(),
  /** Bumped by every change of the two above: the optimistic lock between sign-outs and profile edits. */
  sessions_version: z.number().int().nonnegative().optional(),
});
export type StoredUser = z.infer<typeof StoredUser>;

type TransactItems = NonNullable<TransactWriteCommandInput["TransactItems"]>;

export function toPublicUser(user: StoredUser): PublicUser {
  const {
    password_hash: _hidden,
    revoked_sessions: _revoked,
    session_epoch: _epoch,
    sessions_version: _version,
    email_verified_at: _verifiedAt,
    ...visible
  } = user;
  return { ...visible, email_verified: isEmailVerified(user) };
}

/** Whether the user proved they read mail at their current sign-in address. */
export const isEmailVerified = (user: Pick<StoredUser, "email_verified_at">): boolean =>
  typeof user.email_verified_at === "string" && user.email_verified_at.length > 0;

function userItem(user: StoredUser) {
  return { ...userKey(user.id), ...usersIndex(user.created_at, user.id), entity: "user", ...user };
}

/** The condition that the user's session state is still as `user` was read. */
export function sessionsUnchanged(user: StoredUser): { expression: string; values: Record<string, number> } {
  return user.sessions_version === undefined
    ? { expression: "attribute_not_exists(sessions_version)", values: {} }
    : { expression: "sessions_version = :sessions", values: { ":sessions": user.sessions_version } };
}

const failedCheck = (codes: string[] | null, index: number) => codes?.[index] === "ConditionalCheckFailed";

/**
 * The user item and the email-uniqueness item (and `also`, e.g. a verification link and its mail)
 * are written together or not at all.
 */
export async function insertUser(db: Database, user: StoredUser, also: TransactItems = []): Promise<void> {
  try {
    await db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: db.table,
              Item: { ...emailKey(user.email), entity: "email", user_id: user.id },
              ConditionExpression: "attribute_not_exists(pk)",
            },
          },
          { Put: { TableName: db.table, Item: userItem(user), ConditionExpression: "attribute_not_exists(pk)" } },
          ...also,
        ],
      }),
    );
  } catch (error) {
    if (failedCheck(cancellationCodes(error), 0)) throw conflict(AUTH_MESSAGES.emailTaken, "email_taken");
    throw error;
  }
}

export async function findUserById(db: Database, userId: string): Promise<StoredUser | null> {
  const reply = await db.doc.send(new GetCommand({ TableName: db.table, Key: userKey(userId), ConsistentRead: true }));
  return reply.Item ? StoredUser.parse(reply.Item) : null;
}

export async function findUserByEmail(db: Database, email: string): Promise<StoredUser | null> {
  const reply = await db.doc.send(new GetCommand({ TableName: db.table, Key: emailKey(email), ConsistentRead: true }));
  const userId = reply.Item?.user_id;
  return typeof userId === "string" ? findUserById(db, userId) : null;
}

export interface ReplaceOptions {
  /** More writes that commit with the user's, or not at all (e.g. using up an email-change link). */
  also?: TransactItems;
  /** The refusal when one of `also`'s conditions fails. */
  alsoRefused?: () => Error;
}

/**
 * Replace a user's stored record. When the email changes, the old uniqueness item is released
 * and the new one claimed in the same transaction; the version check refuses lost updates, a
 * sign-out in between included (its revocation would otherwise be written over).
 */
export async function replaceUser(
  db: Database,
  before: StoredUser,
  after: StoredUser,
  options: ReplaceOptions = {},
): Promise<void> {
  const items: TransactItems = [
    {
      Put: {
        TableName: db.table,
        Item: userItem(after),
        ConditionExpression: `updated_at = :seen AND ${sessionsUnchanged(before).expression}`,
        ExpressionAttributeValues: { ":seen": before.updated_at, ...sessionsUnchanged(before).values },
      },
    },
  ];
  if (after.email !== before.email) {
    items.push(
      { Delete: { TableName: db.table, Key: emailKey(before.email) } },
      {
        Put: {
          TableName: db.table,
          Item: { ...emailKey(after.email), entity: "email", user_id: after.id },
          ConditionExpression: "attribute_not_exists(pk)",
        },
      },
    );
  }
  const ownItems = items.length;
  items.push(...(options.also ?? []));
  try {
    await db.doc.send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    const codes = cancellationCodes(error);
    if (failedCheck(codes, 0)) {
      throw conflict("The profile was changed by another request; reload and try again", "concurrent_update");
    }
    if (ownItems > 1 && failedCheck(codes, 2)) throw conflict(AUTH_MESSAGES.emailTaken, "email_taken");
    if (options.alsoRefused && codes?.slice(ownItems).includes("ConditionalCheckFailed")) throw options.alsoRefused();
    throw error;
  }
}

export async function requireUser(db: Database, userId: string): Promise<StoredUser> {
  const user = await findUserById(db, userId);
  if (!user) throw notFound("User not found", "user_not_found");
  return user;
}

export const isRole = (value: unknown): value is Role => Role.safeParse(value).success;
