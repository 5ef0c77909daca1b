import { Duration, RemovalPolicy } from "aws-cdk-lib";
import { BackupPlan, BackupPlanRule, BackupResource, BackupVault } from "aws-cdk-lib/aws-backup";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { Schedule } from "aws-cdk-lib/aws-events";
import type { ITopic } from "aws-cdk-lib/aws-sns";
import type { Construct } from "constructs";
import type { TableBackupSettings } from "../infra/stage";
import { backupFailureAlarm } from "./alarms";

/**
 * When the daily backup starts (UTC): the quietest hour for a platform whose users sleep in Europe
 * and the Americas.
 */
export const TABLE_BACKUP_HOUR_UTC = 3;

/**
 * AWS Backup of the table into a vault of its own: daily, kept `retentionDays`, and, with a
 * Vault Lock, out of reach of anyone who would delete or shorten them, a compromised admin or a
 * mistaken script included. Point-in-time recovery (on for every table, stacks/Storage.ts) covers
 * the same 35 days to the second but can be switched off or deleted with the table; these cannot.
 * A backup plan opts the account into AWS Backup's advanced DynamoDB backups, which is what lets
 * the vault's lock and encryption govern them.
 */
export function tableBackups(scope: Construct, table: ITable, settings: TableBackupSettings, topic: ITopic) {
  const retention = Duration.days(settings.retentionDays);
  const vault = new BackupVault(scope, "TableBackupVault", {
    // A vault holding recovery points cannot be deleted; the stack leaves it (and them) behind.
    removalPolicy: RemovalPolicy.RETAIN,
    lockConfiguration: settings.vaultLock
      ? { minRetention: retention, changeableFor: Duration.days(settings.vaultLock.changeableForDays) }
      : undefined,
  });
  const plan = new BackupPlan(scope, "TableBackupPlan", {
    backupPlanRules: [
      new BackupPlanRule({
        ruleName: "Daily",
        scheduleExpression: Schedule.cron({ minute: "0", hour: String(TABLE_BACKUP_HOUR_UTC) }),
        deleteAfter: retention,
        backupVault: vault,
      }),
    ],
  });
  // The role AWS Backup assumes may also restore, so a restore needs no IAM work in a hurry.
  plan.addSelection("Table", { resources: [BackupResource.fromDynamoDbTable(table)], allowRestores: true });
  backupFailureAlarm(scope, vault.backupVaultName, topic);
  return { vault, plan };
}
