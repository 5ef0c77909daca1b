import { Duration, RemovalPolicy } from "aws-cdk-lib";
import type { ITopic } from "aws-cdk-lib/aws-sns";
import { Queue, QueueEncryption } from "aws-cdk-lib/aws-sqs";
import type { Construct } from "constructs";
import { deadLetterAlarm } from "./alarms";

export interface DeadLetterQueueProps {
  retentionDays: number;
  /** The stage keeps data (infra/stage.ts `retainData`): the queue outlives the stack. */
  retain: boolean;
  topic: ITopic;
  /** What the messages are, for the alarm's text ("payment steps that kept failing"). */
  what: string;
}

/**
 * A dead-letter queue: encrypted, TLS only, alarmed when anything lands in it, and, where the
 * stage keeps data, retained when the stack is removed (CDK deletes queues by default): its
 * messages are the only record of the work that failed.
 */
export function deadLetterQueue(
  scope: Construct,
  id: string,
  { retentionDays, retain, topic, what }: DeadLetterQueueProps,
): Queue {
  const queue = new Queue(scope, id, {
    retentionPeriod: Duration.days(retentionDays),
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    removalPolicy: retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
  });
  deadLetterAlarm(scope, id, queue, topic, what);
  return queue;
}
