import type { Executor, Store } from "../store/database.js";

/** A message the Slack channel posted: its channel id and ts, what `chat.update` and thread replies need. */
export type PostedSlackMessage = { channel: string; ts: string };

export const isPostedSlackMessage = (value: unknown): value is PostedSlackMessage =>
  Boolean(value) && typeof (value as PostedSlackMessage).channel === "string" && typeof (value as PostedSlackMessage).ts === "string";

/** The Slack channel's one query: where an approval's request message went (its delivery's progress). */
export function createSlackMessageQueries({ db: storeDb }: Pick<Store, "db">) {
  return {
    async requestMessageOf(tenantId: string, approvalId: string, db: Executor = storeDb): Promise<PostedSlackMessage | null> {
      const row = await db
        .selectFrom("approval_deliveries")
        .select("progress")
        .where("tenant_id", "=", tenantId)
        .where("approval_id", "=", approvalId)
        .where("channel", "=", "slack")
        .where("purpose", "=", "request")
        .executeTakeFirst();
      const progress: unknown = row?.progress ? JSON.parse(row.progress) : null;
      return isPostedSlackMessage(progress) ? { channel: progress.channel, ts: progress.ts } : null;
    },
  };
}

export type SlackMessageQueries = ReturnType<typeof createSlackMessageQueries>;
