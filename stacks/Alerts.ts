import { Topic } from "aws-cdk-lib/aws-sns";
import { EmailSubscription } from "aws-cdk-lib/aws-sns-subscriptions";
import type { StackContext } from "sst/constructs";
import { accountConcurrencyAlarm } from "./alarms";
import { deploySettings } from "./settings";

/**
 * The stage's alarm topic, first of the stacks so every other stack alarms its own resources
 * into it (stacks/alarms.ts), and the account-wide alarms that belong to no other stack.
 */
export function Alerts({ stack, app }: StackContext) {
  const settings = deploySettings(app.stage);

  /** Where every alarm of the stage notifies; `ALARM_EMAIL` at deploy time subscribes a person. */
  const alarmTopic = new Topic(stack, "Alarms", { displayName: `fintech-platform ${app.stage} alarms` });
  const alarmEmail = process.env.ALARM_EMAIL?.trim();
  if (alarmEmail) alarmTopic.addSubscription(new EmailSubscription(alarmEmail));

  accountConcurrencyAlarm(stack, alarmTopic, settings.concurrency.accountLimit);

  stack.addOutputs({ AlarmTopicArn: alarmTopic.topicArn });

  return { alarmTopic };
}
