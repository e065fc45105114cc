/**
 * Helpers for the Slack approval channel's suites: a broker wired to the fake GitHub (the calls that
 * wait for approval) and the fake Slack (where approval messages go, and whose button presses come
 * back signed), tenants with a shared Slack connection, and the channel's deliveries run as the
 * delivery worker runs them.
 */
import { expect } from "vitest";
import type { ApprovalNotice, DeliveryPurpose } from "../../src/approvals/approval-channel.js";
import { approverMemberOf, eligibleMembers } from "../../src/approvals/approval-requirement.js";
import type { ManualClock } from "../../src/clock.js";
import { startBroker, type TestBroker } from "./broker.js";
import { connectAccount } from "./connect.js";
import type { DbKind } from "./databases.js";
import { startFakeUpstreams, type ButtonPress, type SlackFake } from "./fake-upstreams/index.js";
import { asOperator, call, type CallResult } from "./http.js";
import { createScmTenant, type ScmTenant, type ScmWorld } from "./approvals.js";

export type SlackWorld = ScmWorld & { slack: SlackFake };
export type SlackTenant = ScmTenant & { slackConnectionId: string };

/** #general of the fake Slack, where the app is a member. */
export const GENERAL = "C024BE91L";

export async function startSlackWorld(kind: DbKind, options: { clock?: ManualClock; env?: Record<string, string> } = {}): Promise<SlackWorld> {
  const fakes = await startFakeUpstreams(options.clock ? { now: () => options.clock!.now().getTime() } : {});
  const broker = await startBroker(kind, { env: { ...fakes.github.env, ...fakes.slack.env, ...options.env }, ...(options.clock ? { clock: options.clock } : {}) });
  return {
    broker,
    fakes,
    github: fakes.github,
    slack: fakes.slack,
    close: async () => {
      await broker.close();
      await fakes.close();
    },
  };
}

/** A tenant with a GitHub and a shared Slack connection in env test. */
export async function createSlackTenant(world: SlackWorld, name = "Acme"): Promise<SlackTenant> {
  const tenant = await createScmTenant(world, name);
  return { ...tenant, slackConnectionId: await connectAccount(world.broker, tenant, "chat") };
}

export const putApprovalSettings = (broker: TestBroker, tenant: SlackTenant, body: Record<string, unknown>): Promise<CallResult> =>
  call(broker, "PUT", "/v1/approval-settings", { ...asOperator(tenant), body });

/** Sends the tenant's approvals to Slack, in #general through its Slack connection. */
export async function useSlack(broker: TestBroker, tenant: SlackTenant, channel = GENERAL) {
  const result = await putApprovalSettings(broker, tenant, { channels: ["slack"], slack: { connected_account_id: tenant.slackConnectionId, channel } });
  expect(result.status, result.text).toBe(200);
}

/** Sets the Slack identity (`<team>:<user>`) of the tenant's admin operator, as an admin would on the member. */
export async function linkSlackUser(broker: TestBroker, tenant: SlackTenant, slackUserId: string) {
  await broker.services.store.db.updateTable("tenant_members").set({ slack_user_id: slackUserId }).where("tenant_id", "=", tenant.tenantId).where("subject", "=", tenant.operatorSubject).execute();
}

/** The notice the delivery worker hands the channel for one of an approval's deliveries. */
async function noticeFor(broker: TestBroker, tenantId: string, approvalId: string, purpose: DeliveryPurpose, progress: unknown): Promise<ApprovalNotice> {
  const { services } = broker;
  const approval = await services.approvals.get(tenantId, approvalId);
  const members = (await broker.services.store.db.selectFrom("tenant_members").selectAll().where("tenant_id", "=", tenantId).execute()).map(approverMemberOf);
  return { purpose, approval, binding: await services.approvalBindings.describe(approval), approvers: eligibleMembers(approval, members, null), progress };
}

/**
 * Runs one Slack delivery of an approval as the delivery worker does: the notice to the channel,
 * then the progress it answers stored on the delivery, marked sent. Answers that progress.
 */
export async function deliverToSlack(broker: TestBroker, tenantId: string, approvalId: string, purpose: DeliveryPurpose): Promise<any> {
  const { db } = broker.services.store;
  const at = new Date().toISOString();
  await broker.services.approvalDeliveries.enqueue({ id: approvalId, tenantId }, purpose, ["slack"], at);
  const row = await db.selectFrom("approval_deliveries").selectAll().where("approval_id", "=", approvalId).where("channel", "=", "slack").where("purpose", "=", purpose).executeTakeFirstOrThrow();
  const progress = await broker.services.slackChannel.send(await noticeFor(broker, tenantId, approvalId, purpose, row.progress ? JSON.parse(row.progress) : null));
  await db.updateTable("approval_deliveries").set({ status: "sent", progress: JSON.stringify(progress), sent_at: at, attempts: row.attempts + 1 }).where("id", "=", row.id).execute();
  return progress;
}

/** Posts what Slack sends when someone presses a button (the fake Slack's signed request) to the broker. */
export async function sendInteraction(broker: TestBroker, request: { body: string; headers: Record<string, string> }): Promise<CallResult> {
  return call(broker, "POST", "/v1/slack/interactivity", { headers: request.headers, rawBody: request.body });
}

export const press = (world: SlackWorld, buttonPress: ButtonPress) => sendInteraction(world.broker, world.slack.buttonPress(buttonPress));

export const approvalStatus = async (broker: TestBroker, tenant: SlackTenant, approvalId: string) =>
  (await call(broker, "GET", `/v1/approvals/${approvalId}`, asOperator(tenant))).body.status as string;
