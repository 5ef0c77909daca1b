import { Duration, Stack as CdkStack } from "aws-cdk-lib";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { Rule, Schedule } from "aws-cdk-lib/aws-events";
import { LambdaFunction } from "aws-cdk-lib/aws-events-targets";
import { Effect, PolicyStatement } from "aws-cdk-lib/aws-iam";
import { FilterCriteria, FilterRule, StartingPosition } from "aws-cdk-lib/aws-lambda";
import { DynamoEventSource } from "aws-cdk-lib/aws-lambda-event-sources";
import type { ITopic } from "aws-cdk-lib/aws-sns";
import { Function as SstFunction, type Stack } from "sst/constructs";
import type { StageSettings } from "../infra/stage";
import { functionAlarms } from "./alarms";

/**
 * The platform's mail in the cloud. The API queues a message in the transaction of the change it
 * announces (packages/core/src/mail/outbox.ts); the MailDelivery function sends what is queued
 * through Amazon SES. It is started by the table's stream when a mail item is inserted (so mail
 * leaves within seconds), and every MAIL_RETRY_MINUTES by a schedule that retries failed sends.
 * Its only rights beyond the table: ses:SendEmail on the stage's sender identity (infra/stage.ts).
 */
export const MAIL_DELIVERY_TIMEOUT_SECONDS = 60;
export const MAIL_RETRY_MINUTES = 5;
/** What the delivery function may do with SES: send, from the stage's identity only. */
export const MAIL_SEND_ACTIONS = ["ses:SendEmail"] as const;
/** The table items that start a delivery: new outbox messages (the stream filter). */
export const MAIL_ITEM_ENTITY = "mail";

export interface MailDeliveryProps {
  table: ITable;
  environment: Record<string, string>;
  alarmTopic: ITopic;
  settings: StageSettings;
}

/** The ARN of an SES identity (a domain or an address) in the stack's account and region. */
export const sesIdentityArn = (stack: CdkStack, identity: string) =>
  stack.formatArn({ service: "ses", resource: "identity", resourceName: identity });

export function mailDelivery(stack: Stack, { table, environment, alarmTopic, settings }: MailDeliveryProps) {
  const appUrl = process.env.DEPLOY_APP_URL?.trim() || settings.mail.appUrl;
  /** What the functions that queue mail need: where its links lead. */
  const linkEnvironment: Record<string, string> = appUrl ? { APP_URL: appUrl } : {};

  const delivery = new SstFunction(stack, "MailDelivery", {
    handler: "packages/functions/src/lambda/mail-delivery.handler",
    timeout: `${MAIL_DELIVERY_TIMEOUT_SECONDS} seconds`,
    memorySize: "256 MB",
    environment: { ...environment, ...linkEnvironment, MAIL_FROM: settings.mail.from },
  });
  table.grantReadWriteData(delivery);
  delivery.attachPermissions([
    new PolicyStatement({
      effect: Effect.ALLOW,
      actions: [...MAIL_SEND_ACTIONS],
      resources: [sesIdentityArn(stack, settings.mail.identity)],
    }),
  ]);
  delivery.addEventSource(
    new DynamoEventSource(table, {
      startingPosition: StartingPosition.LATEST,
      batchSize: 100,
      maxBatchingWindow: Duration.seconds(1),
      retryAttempts: 2,
      filters: [
        FilterCriteria.filter({
          eventName: FilterRule.isEqual("INSERT"),
          dynamodb: { NewImage: { entity: { S: FilterRule.isEqual(MAIL_ITEM_ENTITY) } } },
        }),
      ],
    }),
  );
  new Rule(stack, "MailRetrySchedule", {
    description: "Retries queued mail whose send failed",
    schedule: Schedule.rate(Duration.minutes(MAIL_RETRY_MINUTES)),
    targets: [new LambdaFunction(delivery, { retryAttempts: 0 })],
  });
  functionAlarms(stack, "MailDelivery", delivery, alarmTopic, { timeoutSeconds: MAIL_DELIVERY_TIMEOUT_SECONDS });

  return { delivery, linkEnvironment };
}
