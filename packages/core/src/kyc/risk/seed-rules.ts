import type { RuleSetBodyInput } from "./model";

/**
 * The rule set published as version 1 when none is published yet. It is data like any other
 * version: admins change it through the rules API (draft, dry run, publish), never by a deploy.
 *
 * Points are chosen so that one strong signal (someone else's identity number, a watchlist hit, a
 * FATF call-for-action country) alone reaches Medium or High, and the weak ones (marginal image
 * quality, a large amount) only matter together. Thresholds of the image rules sit between the
 * document checks' pass marks (sharpness 100, glare 0.25) and a comfortable margin above them.
 */

/**
 * FATF lists as published after the October 2025 plenary: "high-risk jurisdictions subject to a
 * call for action" (high) and "jurisdictions under increased monitoring" (medium).
 */
export const FATF_COUNTRY_RISK = {
  high: ["KP", "IR", "MM"],
  medium: [
    "DZ",
    "AO",
    "BO",
    "BG",
    "CM",
    "CI",
    "CD",
    "HT",
    "KE",
    "LA",
    "LB",
    "MC",
    "NA",
    "NP",
    "SS",
    "SY",
    "VE",
    "VN",
    "YE",
    "VG",
  ],
  source: "FATF high-risk jurisdictions (call for action) and jurisdictions under increased monitoring, October 2025",
};

/** Webmail domains: thousands of honest applicants share them, so domain velocity ignores them. */
export const WEBMAIL_DOMAINS = [
  "gmail.com",
  "googlemail.com",
  "yahoo.com",
  "yahoo.co.in",
  "outlook.com",
  "hotmail.com",
  "live.com",
  "icloud.com",
  "proton.me",
  "protonmail.com",
  "rediffmail.com",
  "aol.com",
  "gmx.com",
  "mail.com",
  "zoho.com",
];

export const SEED_RULE_SET: RuleSetBodyInput = {
  name: "Default KYC risk rules",
  description:
    "Country risk (FATF), document checks, duplicate identity numbers and images, amount, velocity, name mismatch and watchlist screening.",
  country_risk: FATF_COUNTRY_RISK,
  rules: [
    {
      id: "country_high_risk",
      name: "High-risk country",
      description: "FATF call for action: enhanced due diligence before onboarding.",
      conditions: { all: [{ fact: "country_risk", operator: "equal", value: "high" }] },
      event: {
        type: "risk",
        params: {
          points: 45,
          reason: "Country {country} is on the FATF call-for-action list",
          flag: {
            code: "HIGH_RISK_COUNTRY",
            message: "Applicant's country {country} is a FATF high-risk jurisdiction",
          },
          verdict: "review",
          priority: "high",
        },
      },
    },
    {
      id: "country_medium_risk",
      name: "Country under increased monitoring",
      conditions: { all: [{ fact: "country_risk", operator: "equal", value: "medium" }] },
      event: { type: "risk", params: { points: 20, reason: "Country {country} is under FATF increased monitoring" } },
    },
    {
      id: "document_rejected",
      name: "Document failed its checks",
      description: "A file or image check refused a document (the applicant may upload again).",
      conditions: { all: [{ fact: "any_document_rejected", operator: "equal", value: true }] },
      event: {
        type: "risk",
        params: { points: 15, reason: "{rejected_document_count} document(s) failed the file or image checks" },
      },
    },
    {
      id: "document_marginal_focus",
      name: "Marginal image focus",
      conditions: { all: [{ fact: "min_sharpness", operator: "lessThan", value: 200 }] },
      event: {
        type: "risk",
        params: { points: 5, reason: "A document image is only just in focus (sharpness {min_sharpness})" },
      },
    },
    {
      id: "document_marginal_glare",
      name: "Marginal glare",
      conditions: { all: [{ fact: "max_glare", operator: "greaterThan", value: 0.15 }] },
      event: {
        type: "risk",
        params: { points: 5, reason: "Glare covers part of a document image (share {max_glare})" },
      },
    },
    {
      id: "duplicate_identity_number",
      name: "Identity number held by another user",
      description: "The same Aadhaar or PAN (by keyed hash) was verified by a different account.",
      conditions: { all: [{ fact: "duplicate_identity_number", operator: "equal", value: true }] },
      event: {
        type: "risk",
        params: {
          points: 50,
          reason:
            "An identity number of this submission is also held by {duplicate_identity_number_users} other user(s)",
          flag: { code: "DUPLICATE_IDENTITY_NUMBER", message: "The same identity number is used by another account" },
          verdict: "review",
          priority: "high",
        },
      },
    },
    {
      id: "duplicate_image",
      name: "Document image submitted by another user",
      conditions: { all: [{ fact: "duplicate_image", operator: "equal", value: true }] },
      event: {
        type: "risk",
        params: {
          points: 40,
          reason: "A document image is a near-duplicate of one from {duplicate_image_users} other user(s)",
          flag: { code: "DUPLICATE_IMAGE", message: "A document image matches another account's document" },
          verdict: "review",
        },
      },
    },
    {
      id: "amount_high",
      name: "High amount",
      conditions: { all: [{ fact: "amount", operator: "greaterThanInclusive", value: 1_000_000 }] },
      event: { type: "risk", params: { points: 10, reason: "Amount {amount} INR is at least 10 lakh" } },
    },
    {
      id: "amount_very_high",
      name: "Very high amount",
      conditions: { all: [{ fact: "amount", operator: "greaterThanInclusive", value: 10_000_000 }] },
      event: {
        type: "risk",
        params: { points: 15, reason: "Amount {amount} INR is at least 1 crore", priority: "high" },
      },
    },
    {
      id: "velocity_ip",
      name: "Many starts from one IP address",
      conditions: { all: [{ fact: "velocity_ip_24h", operator: "greaterThanInclusive", value: 3 }] },
      event: {
        type: "risk",
        params: {
          points: 20,
          reason: "{velocity_ip_24h} KYC starts from the same IP address within 24 hours",
          flag: {
            code: "VELOCITY_IP",
            message: "Several KYC submissions came from the same IP address within 24 hours",
          },
        },
      },
    },
    {
      id: "velocity_email_domain",
      name: "Many starts from one private e-mail domain",
      conditions: {
        all: [
          { fact: "velocity_email_domain_24h", operator: "greaterThanInclusive", value: 5 },
          { fact: "email_domain", operator: "notIn", value: WEBMAIL_DOMAINS },
        ],
      },
      event: {
        type: "risk",
        params: {
          points: 15,
          reason: "{velocity_email_domain_24h} KYC starts from {email_domain} within 24 hours",
          flag: {
            code: "VELOCITY_EMAIL_DOMAIN",
            message: "Several KYC submissions from the same e-mail domain within 24 hours",
          },
        },
      },
    },
    {
      id: "velocity_device",
      name: "Many starts from one device",
      conditions: { all: [{ fact: "velocity_device_24h", operator: "greaterThanInclusive", value: 3 }] },
      event: {
        type: "risk",
        params: {
          points: 20,
          reason: "{velocity_device_24h} KYC starts from the same device within 24 hours",
          flag: {
            code: "VELOCITY_DEVICE",
            message: "Several KYC submissions came from the same device within 24 hours",
          },
        },
      },
    },
    {
      id: "name_mismatch",
      name: "KYC name differs from the profile name",
      conditions: { all: [{ fact: "name_mismatch", operator: "equal", value: true }] },
      event: {
        type: "risk",
        params: {
          points: 20,
          reason: "The KYC name and the account's profile name differ (similarity {name_similarity})",
          flag: {
            code: "NAME_MISMATCH",
            message: "The name on the KYC submission does not match the account holder's name",
          },
        },
      },
    },
    {
      id: "watchlist_hit",
      name: "Watchlist match",
      description: "The name matches a sanctions or PEP entry of the current watchlist.",
      conditions: { all: [{ fact: "watchlist_hit", operator: "equal", value: true }] },
      event: {
        type: "risk",
        params: {
          points: 60,
          reason: "The name matches a {watchlist_list} watchlist entry (similarity {watchlist_score})",
          flag: { code: "WATCHLIST_HIT", message: "The applicant's name matches a watchlist entry" },
          verdict: "review",
          priority: "high",
        },
      },
    },
    {
      id: "watchlist_sanctions_exact",
      name: "Exact sanctions match",
      description: "An exact (normalised) match on a sanctions list: recommend rejection; a reviewer still decides.",
      conditions: {
        all: [
          { fact: "watchlist_score", operator: "greaterThanInclusive", value: 1 },
          { fact: "watchlist_list", operator: "equal", value: "sanctions" },
        ],
      },
      event: {
        type: "risk",
        params: { points: 40, reason: "The name is identical to a sanctions list entry", verdict: "reject" },
      },
    },
  ],
};
