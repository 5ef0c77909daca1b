import {
  actionsOf,
  environmentOf,
  resourceOf,
  resourcesOf,
  statementsFor,
  synth,
  type SynthesizedApp,
} from "./testing";
import { beforeAll, describe, expect, it } from "vitest";
import { stageSettings } from "../infra/stage";
import { Api } from "./Api";
import { Feeds } from "./Feeds";
import { MAIL_DELIVERY_TIMEOUT_SECONDS, MAIL_ITEM_ENTITY, MAIL_RETRY_MINUTES, MAIL_SEND_ACTIONS } from "./Mail";

/** Mail through SES (stacks/Mail.ts), as the real app synthesises it: least privilege, started by the outbox. */

const SYNTH_TIMEOUT_MS = 300_000;
const STAGE = "production";
const HANDLER = "packages/functions/src/lambda/mail-delivery.handler";

describe("mail delivery through SES", () => {
  let built: SynthesizedApp;
  beforeAll(async () => {
    built = await synth({ stage: STAGE });
  }, SYNTH_TIMEOUT_MS);
  const template = () => built.template(Api);
  const mail = stageSettings(STAGE).mail;

  it("sends as the stage's sender, granted ses:SendEmail on that identity's ARN and nothing wider", () => {
    const fn = resourceOf(template(), "AWS::Lambda::Function", "MailDelivery");
    expect(fn.Properties).toMatchObject({
      Handler: HANDLER,
      Runtime: "nodejs22.x",
      Timeout: MAIL_DELIVERY_TIMEOUT_SECONDS,
    });
    expect(environmentOf(template(), "MailDelivery").MAIL_FROM).toBe(mail.from);
    expect(mail.from).toContain(`@${mail.identity}>`);

    const ses = statementsFor(template(), "MailDelivery").filter((statement) =>
      actionsOf(statement).some((action) => action.startsWith("ses:")),
    );
    expect(ses).toHaveLength(1);
    expect(actionsOf(ses[0]!)).toEqual([...MAIL_SEND_ACTIONS]);
    const arn = JSON.stringify(resourcesOf(ses[0]!));
    expect(arn).toContain(`:identity/${mail.identity}`);
    expect(arn).toContain("arn:");
    expect(arn).not.toContain("*");
  });

  it("leaves SES to the delivery function: neither the API nor the feeds may send mail", () => {
    for (const [stack, id] of [
      [Api, "Api"],
      [Feeds, "Feeds"],
    ] as const) {
      const actions = statementsFor(built.template(stack), id).flatMap(actionsOf);
      expect(actions.filter((action) => action.startsWith("ses:"))).toEqual([]);
    }
  });

  it("is started by new outbox items on the table's stream, and retried on a schedule", () => {
    const fn = resourceOf(template(), "AWS::Lambda::Function", "MailDelivery");
    const mappings = Object.values(template().findResources("AWS::Lambda::EventSourceMapping"))
      .map(
        (mapping) =>
          mapping.Properties as {
            FunctionName: unknown;
            FilterCriteria?: { Filters: { Pattern: string }[] };
            StartingPosition?: string;
          },
      )
      .filter((mapping) => JSON.stringify(mapping.FunctionName) === JSON.stringify({ Ref: fn.id }));
    expect(mappings).toHaveLength(1);
    expect(mappings[0]!.StartingPosition).toBe("LATEST");
    expect(JSON.parse(mappings[0]!.FilterCriteria!.Filters[0]!.Pattern)).toEqual({
      eventName: ["INSERT"],
      dynamodb: { NewImage: { entity: { S: [MAIL_ITEM_ENTITY] } } },
    });
    const rule = resourceOf(template(), "AWS::Events::Rule", "MailRetrySchedule");
    expect(rule.Properties).toMatchObject({ ScheduleExpression: `rate(${MAIL_RETRY_MINUTES} minutes)` });
    expect(JSON.stringify(rule.Properties!.Targets)).toContain(fn.id);
  });
});
