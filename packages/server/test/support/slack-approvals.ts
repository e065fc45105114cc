/**
 * Helpers for the Slack approval channel's suites: a broker wired to the fake GitHub (the calls that
 * wait for approval) and the fake Slack (where approval messages go, and whose button presses come
 * back signed), tenants with a shared Slack connection, and the approval outbox run by hand.
 */
import { expect } from "vitest";
import type { DeliveryPurpose } from "../../src/approvals/approval-channel.js";
import type { PostedSlackMessage } from "../../src/approvals/slack-message-queries.js";
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
  // The outbox is run by hand (deliverToSlack), so each delivery happens when a test says.
  const env = { ...fakes.github.env, ...fakes.slack.env, BROKER_APPROVAL_WORKER: "false", ...options.env };
  const broker = await startBroker(kind, { env, ...(options.clock ? { clock: options.clock } : {}) });
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

/** Sets the Slack identity (`<team>:<user>`) of the tenant's admin operator through the members API. */
export async function linkSlackUser(broker: TestBroker, tenant: SlackTenant, slackUserId: string) {
  const members = await call(broker, "GET", "/v1/members", asOperator(tenant));
  const me = (members.body.data as { id: string; subject: string }[]).find((member) => member.subject === tenant.operatorSubject)!;
  const patched = await call(broker, "PATCH", `/v1/members/${me.id}`, { ...asOperator(tenant), body: { slack_user_id: slackUserId } });
  expect(patched.status, patched.text).toBe(200);
}

/** An approval's Slack delivery of one purpose, as the outbox keeps it. */
export async function slackDelivery(broker: TestBroker, approvalId: string, purpose: DeliveryPurpose) {
  const row = await broker.services.store.db.selectFrom("approval_deliveries").selectAll().where("approval_id", "=", approvalId).where("channel", "=", "slack").where("purpose", "=", purpose).executeTakeFirst();
  return row && { ...row, progress: row.progress ? (JSON.parse(row.progress) as PostedSlackMessage) : null };
}

/** Runs the approval outbox once (the worker is off in these worlds), then answers the Slack delivery's state. */
export async function deliverToSlack(broker: TestBroker, approvalId: string, purpose: DeliveryPurpose) {
  await broker.services.approvalOutbox.runOnce();
  const delivery = await slackDelivery(broker, approvalId, purpose);
  expect(delivery?.status, delivery?.last_error ?? "").toBe("sent");
  return delivery!.progress!;
}

/** Posts what Slack sends when someone presses a button (the fake Slack's signed request) to the broker. */
export async function sendInteraction(broker: TestBroker, request: { body: string; headers: Record<string, string> }): Promise<CallResult> {
  return call(broker, "POST", "/v1/slack/interactivity", { headers: request.headers, rawBody: request.body });
}

export const press = (world: SlackWorld, buttonPress: ButtonPress) => sendInteraction(world.broker, world.slack.buttonPress(buttonPress));

export const approvalStatus = async (broker: TestBroker, tenant: SlackTenant, approvalId: string) =>
  (await call(broker, "GET", `/v1/approvals/${approvalId}`, asOperator(tenant))).body.status as string;
