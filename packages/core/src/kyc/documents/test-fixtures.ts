import type { CoreContext } from "../../shared/context";
import { findCountry } from "../countries";
import type { KycSubmission } from "../model";
import { createSubmission } from "../submissions";

/**
 * A started KYC submission written through the foundation's createSubmission, for the document
 * tests (which must not depend on the applicant's start route). Test-only; nothing imports it in
 * production.
 */
export function startTestSubmission(ctx: CoreContext, userId: string, country = "IN"): Promise<KycSubmission> {
  const countryName = findCountry(country)?.country ?? country;
  return createSubmission(
    ctx,
    {
      user_id: userId,
      name: "Asha Rao",
      email: `${userId}@example.com`,
      phone: "+919876543210",
      country,
      location: countryName,
      status: "pending",
      amount: 50_000,
      priority: "low",
      risk_score: 0,
      risk: null,
      progress: 0,
      documents: {},
      identity_numbers: {},
      notes: "",
      info_request: null,
      origin: { ip: null, email_domain: "example.com" },
      verified_at: null,
      decided_at: null,
    },
    {
      actor: { id: userId, name: "Asha Rao", role: "applicant" },
      action: "started",
      from: null,
      to: "pending",
      note: null,
      event: { type: "verificationStarted", data: { verificationId: userId, country } },
    },
  );
}
