import { sesMailSender } from "@fintech/core/mail/ses";
import { deliverQueuedMail, type DeliveryResult } from "@fintech/core/mail/outbox";
import { createContext } from "@fintech/core/shared/context";
import { workerConfig } from "./payment-queue";

/**
 * The cloud's mail delivery (stacks/Mail.ts): started by the table's stream when a message is
 * queued, and on a schedule for the ones whose send failed. Either way it sends whatever the
 * outbox holds through SES; the outbox's claims keep two runs from sending one message twice.
 */
const core = createContext(workerConfig());
const sender = sesMailSender();

export async function handler(): Promise<DeliveryResult> {
  return deliverQueuedMail(core, sender);
}
