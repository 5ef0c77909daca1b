/** Key formats of the mail domain; nothing else builds these keys. */
export const mailKey = (mailId: string) => ({ pk: `MAIL#${mailId}`, sk: "MAIL" });
/** Messages waiting to be sent, oldest first; a message leaves the index once sent or given up on. */
export const MAIL_QUEUE_PARTITION = "MAILQUEUE";
export const mailQueueIndex = (queuedAt: string, mailId: string) => ({
  gsi1pk: MAIL_QUEUE_PARTITION,
  gsi1sk: `${queuedAt}#${mailId}`,
});
