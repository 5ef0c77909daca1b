import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { RiskAssessment } from "@fintech/core/kyc/model";
import {
  NEUTRAL_FACTS,
  PublishedRuleSet,
  RiskFacts,
  RuleSetBody,
  RuleSetDraft,
  WatchlistEntry,
} from "@fintech/core/kyc/risk/model";
import { DryRunInput } from "@fintech/core/kyc/risk/rule-sets";
import { SEED_RULE_SET } from "@fintech/core/kyc/risk/seed-rules";
import { WATCHLIST_LIMITS } from "@fintech/core/kyc/risk/watchlist";
import { authenticated, errors, jsonBody, jsonReply, pathParameter, queryParameter, TAGS } from "../http/openapi";

/**
 * The OpenAPI declarations of the risk rules and watchlist routes (kyc-rules.ts): what the
 * document says of each route (path, parameters, replies, examples). The handlers are there,
 * registered in the order the document lists them.
 */

const admin = { tags: [TAGS.kyc] as [typeof TAGS.kyc], security: authenticated, "x-stability": "beta" as const };
const ADMIN_ONLY = "Administrators only (a user is answered 403 `admin_required`).";

/* ---------- replies ---------- */

const VersionListing = z.object({
  version: z.number().int(),
  name: z.string(),
  rules: z.number().int().describe("How many rules"),
  published_at: z.string(),
  published_by: z.string(),
});
const RulesOverviewReply = z.object({
  data: z.object({
    published: PublishedRuleSet.describe("The live version (the seed rule set is published as version 1 on first use)"),
    draft: RuleSetDraft.nullable().describe("The editable draft; null when none was saved since the last publish"),
    versions: z.array(VersionListing).describe("Every published version, newest first"),
  }),
});
const RuleSetReply = z.object({ data: PublishedRuleSet });
const MessageRuleSetReply = z.object({ message: z.string(), data: PublishedRuleSet });
const DraftReply = z.object({ message: z.string(), data: RuleSetDraft });
const DryRunReply = z.object({
  data: z.object({
    rule_set: z.object({
      source: z.enum(["body", "draft", "version"]),
      version: z.number().int().nullable(),
      name: z.string(),
    }),
    assessment: RiskAssessment.describe("What the rule set would give the submission now (nothing is saved)"),
    facts: RiskFacts.describe("The facts it was evaluated on"),
    current: RiskAssessment.nullable().describe("The assessment the submission holds, for comparison"),
  }),
});
const WatchlistSummary = z.object({
  version: z.number().int().nullable(),
  name: z.string().nullable(),
  entries: z.number().int(),
  lists: z.record(z.string(), z.number().int()).describe("Entries per list, e.g. sanctions, pep"),
  uploaded_at: z.string().nullable(),
  uploaded_by: z.string().nullable(),
  sample: z.array(WatchlistEntry).describe("The first entries"),
});
const WatchlistReply = z.object({ data: WatchlistSummary });
const WatchlistUploadReply = z.object({
  message: z.string(),
  data: WatchlistSummary.extend({ ignored_columns: z.array(z.string()) }),
});
export const WatchlistJsonInput = z
  .object({
    csv: z.string({ error: "csv is required: the watchlist as CSV text" }),
    name: z.string().max(WATCHLIST_LIMITS.maxLabelLength).optional(),
  })
  .strict();
export const PublishInput = z.object({ draft_revision: z.number().int().min(1).optional() }).strict();

/* ---------- examples ---------- */

const seedExample = RuleSetBody.parse({ ...SEED_RULE_SET, rules: SEED_RULE_SET.rules.slice(0, 2) });
const publishedExample = {
  ...seedExample,
  version: 2,
  published_at: "2026-01-15T09:30:00.000Z",
  published_by: "admin@example.com",
};
const draftExample = {
  ...seedExample,
  revision: 3,
  based_on_version: 2,
  updated_at: "2026-01-15T10:00:00.000Z",
  updated_by: "admin@example.com",
};
const assessmentExample = {
  risk_score: 45,
  level: "Medium",
  priority: "high",
  flags: [{ code: "HIGH_RISK_COUNTRY", message: "Applicant's country IR is a FATF high-risk jurisdiction" }],
  verdict: "review",
  reasons: [{ rule: "country_high_risk", points: 45, reason: "Country IR is on the FATF call-for-action list" }],
  rule_set_version: 2,
  assessed_at: "2026-01-15T10:05:00.000Z",
};
const watchlistExample = {
  version: 3,
  name: "Sanctions and PEP, January",
  entries: 2,
  lists: { sanctions: 1, pep: 1 },
  uploaded_at: "2026-01-15T08:00:00.000Z",
  uploaded_by: "admin@example.com",
  sample: [
    { name: "Ivan Petrov", aliases: ["Ivan Petroff"], country: "RU", list: "sanctions", type: "individual" },
    { name: "Jane Roe", aliases: [], country: "GB", list: "pep", type: "individual" },
  ],
};

export const overviewRoute = createRoute({
  ...admin,
  method: "get",
  path: "/",
  operationId: "getKycRules",
  summary: "Risk rule sets: the live version, the draft and every version",
  description: `The published rule set (json-rules-engine rules whose events add points, flags, a verdict and a priority, plus the country-risk table), the draft being edited and the list of versions. Nothing published yet: the seed rule set is published as version 1 first. ${ADMIN_ONLY}`,
  "x-complexity": "medium",
  responses: {
    200: jsonReply("The rule sets", "KycRulesOverviewReply", RulesOverviewReply, {
      data: {
        published: publishedExample,
        draft: draftExample,
        versions: [
          {
            version: 2,
            name: publishedExample.name,
            rules: 15,
            published_at: publishedExample.published_at,
            published_by: "admin@example.com",
          },
        ],
      },
    }),
    ...errors({ 401: true, 403: ["admin_required"], 503: true }),
  },
});

export const versionRoute = createRoute({
  ...admin,
  method: "get",
  path: "/versions/{version}",
  operationId: "getKycRuleSetVersion",
  summary: "One published rule set version",
  description: `Published versions never change. ${ADMIN_ONLY}`,
  "x-complexity": "low",
  parameters: [pathParameter("version", "The version number (1, 2, ...)", "2")],
  responses: {
    200: jsonReply("The version", "KycRuleSetReply", RuleSetReply, { data: publishedExample }),
    ...errors({
      400: ["invalid_version"],
      401: true,
      403: ["admin_required"],
      404: ["rule_set_version_not_found"],
      503: true,
    }),
  },
});

export const draftRoute = createRoute({
  ...admin,
  method: "put",
  path: "/draft",
  operationId: "saveKycRuleSetDraft",
  summary: "Save the draft rule set",
  description: `Replaces the draft. The rule set is checked with its schema (at most 100 rules, names up to 200 characters, conditions at most 6 levels deep, 200 KB of JSON; known facts and operators only) and then loaded and run once by json-rules-engine itself: whatever it would refuse is a 400 \`invalid_rule_set\` naming the rule and the place, and nothing is saved. With \`expected_revision\`, a draft someone else saved since is not overwritten (409). ${ADMIN_ONLY}`,
  "x-complexity": "medium",
  parameters: [
    queryParameter(
      "expected_revision",
      "The draft revision the edit started from (0: there was no draft)",
      { type: "integer", minimum: 0 },
      3,
    ),
  ],
  request: { body: jsonBody("KycRuleSetBody", RuleSetBody, seedExample) },
  responses: {
    200: jsonReply("The saved draft", "KycRuleSetDraftReply", DraftReply, {
      message: "Draft saved",
      data: draftExample,
    }),
    ...errors({
      400: ["invalid_rule_set", "invalid_json", "validation_error"],
      401: true,
      403: ["admin_required"],
      409: ["rule_set_draft_changed"],
      413: ["payload_too_large"],
      503: true,
    }),
  },
});

export const testRoute = createRoute({
  ...admin,
  method: "post",
  path: "/test",
  operationId: "testKycRuleSet",
  summary: "Dry-run a rule set against a stored submission",
  description: `Evaluates \`rules\` (a rule set body, validated like a draft), or published \`version\`, or else the draft (the live version when there is none) against the submission \`submission_id\` as it is now, and returns the assessment it would produce with the facts it saw. Writes nothing. ${ADMIN_ONLY}`,
  "x-complexity": "medium",
  request: {
    body: jsonBody("KycRuleSetTestInput", DryRunInput, {
      submission_id: "5b3f8c1e-2d4a-4e6b-9c7d-1a2b3c4d5e6f",
      version: 2,
    }),
  },
  responses: {
    200: jsonReply("The assessment it would give", "KycRuleSetTestReply", DryRunReply, {
      data: {
        rule_set: { source: "version", version: 2, name: publishedExample.name },
        assessment: assessmentExample,
        facts: { ...NEUTRAL_FACTS, country: "IR", country_risk: "high" },
        current: null,
      },
    }),
    ...errors({
      400: ["invalid_rule_set", "invalid_json", "validation_error"],
      401: true,
      403: ["admin_required"],
      404: ["kyc_submission_not_found", "rule_set_version_not_found"],
      413: ["payload_too_large"],
      503: true,
    }),
  },
});

export const publishRoute = createRoute({
  ...admin,
  method: "post",
  path: "/publish",
  operationId: "publishKycRuleSet",
  summary: "Publish the draft as the next version",
  description: `The draft becomes the next immutable version and the live one: every instance uses it from its next evaluation (the live version is looked up on every evaluation), and each assessment records the version that produced it. The pointer moves only from the version this publish saw and the draft is removed only at the revision read, so concurrent publishes give one version and a 409. An optional \`draft_revision\` publishes only that revision of the draft. ${ADMIN_ONLY}`,
  "x-complexity": "medium",
  request: { body: { ...jsonBody("KycRuleSetPublishInput", PublishInput, { draft_revision: 3 }), required: false } },
  responses: {
    201: jsonReply("The new version", "KycRuleSetPublishReply", MessageRuleSetReply, {
      message: "Rule set version 3 published",
      data: { ...publishedExample, version: 3 },
    }),
    ...errors({
      400: ["validation_error", "invalid_json"],
      401: true,
      403: ["admin_required"],
      409: ["rule_set_no_draft", "rule_set_draft_changed", "rule_set_publish_conflict"],
      503: true,
    }),
  },
});

export const watchlistUploadRoute = createRoute({
  ...admin,
  method: "post",
  path: "/watchlist",
  operationId: "uploadKycWatchlist",
  summary: "Upload a sanctions/PEP watchlist (CSV)",
  description: `The CSV as \`text/csv\` (label in \`?name=\`) or JSON \`{csv, name?}\`: a header row with \`name\` and any of \`aliases\` (separated by ; or |), \`country\`, \`list\` (e.g. sanctions, pep; default sanctions), \`type\`; other columns are ignored and listed in the reply. At most 2 MB and 20,000 rows; a malformed file is a 400 \`invalid_watchlist\` naming the line, and nothing changes. The upload becomes the current list: names are screened with Jaro-Winkler (>= 0.92 on normalised names, order of the parts ignored) from every instance's next assessment. ${ADMIN_ONLY}`,
  "x-complexity": "high",
  parameters: [
    queryParameter(
      "name",
      "A label for the list (with a text/csv body)",
      { type: "string", maxLength: WATCHLIST_LIMITS.maxLabelLength },
      "Sanctions and PEP, January",
    ),
  ],
  request: {
    body: {
      required: true,
      content: {
        "text/csv": {
          schema: { type: "string" },
          example:
            "name,aliases,country,list,type\nIvan Petrov,Ivan Petroff,RU,sanctions,individual\nJane Roe,,GB,pep,individual\n",
        },
        "application/json": {
          schema: {
            type: "object",
            required: ["csv"],
            properties: {
              csv: { type: "string" },
              name: { type: "string", maxLength: WATCHLIST_LIMITS.maxLabelLength },
            },
          },
          example: { csv: "name,list\nIvan Petrov,sanctions\n", name: "Sanctions" },
        },
      },
    },
  },
  responses: {
    201: jsonReply("The new current watchlist", "KycWatchlistUploadReply", WatchlistUploadReply, {
      message: "Watchlist version 3 uploaded: 2 entries",
      data: { ...watchlistExample, ignored_columns: [] },
    }),
    ...errors({
      400: ["invalid_watchlist", "invalid_json", "validation_error"],
      401: true,
      403: ["admin_required"],
      413: ["payload_too_large"],
      415: ["unsupported_media_type"],
      503: true,
    }),
  },
});

export const watchlistRoute = createRoute({
  ...admin,
  method: "get",
  path: "/watchlist",
  operationId: "getKycWatchlist",
  summary: "The current watchlist",
  description: `Version, label, counts per list, who uploaded it and when, and the first entries (all null/0 before any upload). ${ADMIN_ONLY}`,
  "x-complexity": "low",
  responses: {
    200: jsonReply("The current watchlist", "KycWatchlistReply", WatchlistReply, { data: watchlistExample }),
    ...errors({ 401: true, 403: ["admin_required"], 503: true }),
  },
});
