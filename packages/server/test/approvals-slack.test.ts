/**
 * Issue 39, approval where people are: Slack. An approval's request is posted with Approve and Deny
 * buttons to the tenant's channel through its Slack connection (the fake Slack), a press comes back
 * as Slack's signed `block_actions` request, the presser is mapped to a member by their Slack
 * identity, and the message is replaced by the outcome. A press that is not Slack's (bad signature,
 * old timestamp) or not a member's decides nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { DEFAULT_SLACK_USER } from "./support/fake-upstreams/index.js";
import { slackSignature } from "../src/sandbox/slack-interactions.js";
import { asOperator, call } from "./support/http.js";
import { continueInvocation, deletion, repoExists, requestApproval } from "./support/approvals.js";
import {
  approvalStatus,
  createSlackTenant,
  deliverToSlack,
  GENERAL,
  linkSlackUser,
  press,
  sendInteraction,
  startSlackWorld,
  useSlack,
  type SlackTenant,
  type SlackWorld,
} from "./support/slack-approvals.js";

const APPROVE = "toolbroker_approval_approve";
const DENY = "toolbroker_approval_deny";
const WANDA = `${DEFAULT_SLACK_USER.teamId}:${DEFAULT_SLACK_USER.id}`;
const OUTSIDER = { id: "U0OUTSIDE1", name: "outsider" };

type Block = Record<string, any>;
const actionsOf = (message: { blocks?: Block[] }) => message.blocks?.find((block) => block.type === "actions");

describeEachDatabase("approvals in Slack", (kind) => {
  let world: SlackWorld;
  let tenant: SlackTenant;
  let other: SlackTenant;

  beforeAll(async () => {
    world = await startSlackWorld(kind);
    tenant = await createSlackTenant(world, "Acme");
    other = await createSlackTenant(world, "Other");
    await useSlack(world.broker, tenant);
    await useSlack(world.broker, other);
    await linkSlackUser(world.broker, tenant, WANDA);
    await linkSlackUser(world.broker, other, `${DEFAULT_SLACK_USER.teamId}:${OUTSIDER.id}`);
  });
  afterAll(() => world.close());

  /** A pending approval of tenant `owner`, posted to Slack: its id and the message's ts. */
  async function postedApproval(owner: SlackTenant, repo = "hello-world") {
    const { approval_id, invocation_id } = await requestApproval(world.broker, deletion(owner, repo));
    const posted = await deliverToSlack(world.broker, approval_id, "request");
    return { approvalId: approval_id, invocationId: invocation_id, ts: posted.ts };
  }
  const messageAt = (ts: string) => world.slack.messages(GENERAL).find((message) => message.ts === ts)!;

  describe("the request message", () => {
    it("shows the tool, the account by name, the agent app, the digest and the arguments, with Approve and Deny", async () => {
      const { approvalId, ts } = await postedApproval(tenant);
      const message = messageAt(ts);
      const approval = await world.broker.services.approvals.get(tenant.tenantId, approvalId);
      const binding = await world.broker.services.approvalBindings.describe(approval);
      const text = JSON.stringify(message.blocks);
      expect(text).toContain("scm.delete_repository");
      expect(text).toContain(binding.account!.displayName);
      expect(text).toContain(binding.agentApp.name);
      expect(text).toContain(binding.digest);
      expect(text).toContain(tenant.owner);
      expect(actionsOf(message)!.elements.map((button: Block) => [button.action_id, button.text.text])).toEqual([
        [APPROVE, "Approve"],
        [DENY, "Deny"],
      ]);
      expect(text).toContain(`<@${DEFAULT_SLACK_USER.id}>`);
      const call = world.slack.stats.apiCalls.filter((c) => c.path === "/api/chat.postMessage").at(-1)!;
      expect(call.authorization).toMatch(/^Bearer xoxb-/);
      for (const secret of [...world.slack.issuedSecrets(), ...world.github.issuedSecrets(), world.slack.signingSecret]) expect(JSON.stringify(message)).not.toContain(secret);
    });
  });

  describe("a button press", () => {
    it("approves with a valid signature from a member, the message is replaced by the outcome, and the call runs", async () => {
      const { approvalId, ts, invocationId } = await postedApproval(tenant, "spoon-knife");
      const answer = await press(world, { channel: GENERAL, ts, actionId: APPROVE });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toMatchObject({ handled: true, approval_id: approvalId, decision: "approve" });
      expect(await approvalStatus(world.broker, tenant, approvalId)).toBe("approved");
      const before = world.slack.messages(GENERAL).length;
      await deliverToSlack(world.broker, approvalId, "outcome");
      expect(world.slack.messages(GENERAL).length).toBe(before);
      const updated = messageAt(ts);
      expect(actionsOf(updated)).toBeUndefined();
      expect(updated.text).toContain("Approved");
      expect(updated.edited).toBeDefined();
      // The agent's call then runs: the repository is gone.
      const continued = await continueInvocation(world.broker, tenant.token, invocationId);
      expect(continued.status, continued.text).toBe(200);
      expect(await repoExists(world, tenant, "spoon-knife")).toBe(false);
    });

    it("denies through the Deny button", async () => {
      const { approvalId, ts } = await postedApproval(tenant);
      const answer = await press(world, { channel: GENERAL, ts, actionId: DENY });
      expect(answer.status, answer.text).toBe(200);
      expect(await approvalStatus(world.broker, tenant, approvalId)).toBe("denied");
    });

    it("refuses a bad signature (401) and decides nothing", async () => {
      const { approvalId, ts } = await postedApproval(tenant);
      const request = world.slack.buttonPress({ channel: GENERAL, ts, actionId: APPROVE });
      const wrong = { ...request.headers, "x-slack-signature": `v0=${"0".repeat(64)}` };
      expectError(await sendInteraction(world.broker, { body: request.body, headers: wrong }), 401, "unauthorized");
      const tampered = request.body.replace(encodeURIComponent(DENY), encodeURIComponent(APPROVE));
      expectError(await sendInteraction(world.broker, { body: `${tampered}&x=1`, headers: request.headers }), 401, "unauthorized");
      const { "x-slack-signature": _dropped, ...unsigned } = request.headers;
      expectError(await sendInteraction(world.broker, { body: request.body, headers: unsigned }), 401, "unauthorized");
      expect(await approvalStatus(world.broker, tenant, approvalId)).toBe("pending");
    });

    it("refuses a correctly signed request more than five minutes old (401) and decides nothing", async () => {
      const { approvalId, ts } = await postedApproval(tenant);
      const old = world.slack.buttonPress({ channel: GENERAL, ts, actionId: APPROVE, timestamp: Math.floor(Date.now() / 1000) - 301 });
      const answer = await sendInteraction(world.broker, old);
      expectError(answer, 401, "unauthorized");
      expect(answer.body.error.message).toMatch(/five minutes/);
      expect(await approvalStatus(world.broker, tenant, approvalId)).toBe("pending");
    });

    it("refuses a Slack user who is no member of the tenant (403) and decides nothing", async () => {
      const { approvalId, ts } = await postedApproval(tenant);
      const stranger = await press(world, { channel: GENERAL, ts, actionId: APPROVE, user: { id: "U0STRANGER", name: "stranger" } });
      expectError(stranger, 403, "forbidden");
      const otherTeam = await press(world, { channel: GENERAL, ts, actionId: APPROVE, user: { teamId: "T0OTHERTEAM" } });
      expectError(otherTeam, 403, "forbidden");
      expect(await approvalStatus(world.broker, tenant, approvalId)).toBe("pending");
    });

    it("refuses a member of another tenant pressing this tenant's message (403) and decides nothing", async () => {
      const { approvalId, ts } = await postedApproval(tenant);
      expectError(await press(world, { channel: GENERAL, ts, actionId: APPROVE, user: OUTSIDER }), 403, "forbidden");
      expect(await approvalStatus(world.broker, tenant, approvalId)).toBe("pending");
      // The same person decides their own tenant's approvals.
      const own = await postedApproval(other);
      const answer = await press(world, { channel: GENERAL, ts: own.ts, actionId: DENY, user: OUTSIDER });
      expect(answer.status, answer.text).toBe(200);
      expect(await approvalStatus(world.broker, other, own.approvalId)).toBe("denied");
    });

    it("refuses a member who may not decide it (a viewer, under the default 1-of-admins rule) and decides nothing", async () => {
      const issuer = world.broker.runtime.developmentIssuer!;
      await world.broker.services.tenants.addMember(tenant.tenantId, { issuer: issuer.issuer, subject: "slack-viewer", role: "viewer" }, "test");
      const members = await call(world.broker, "GET", "/v1/members", asOperator(tenant));
      const viewer = (members.body.data as { id: string; subject: string }[]).find((member) => member.subject === "slack-viewer")!;
      // The viewer links their own Slack identity (members set their own).
      const asViewer = { token: await issuer.issue("slack-viewer"), tenant: tenant.tenantId };
      const linked = await call(world.broker, "PATCH", `/v1/members/${viewer.id}`, { ...asViewer, body: { slack_user_id: `${DEFAULT_SLACK_USER.teamId}:U0VIEWER01` } });
      expect(linked.status, linked.text).toBe(200);
      const { approvalId, ts } = await postedApproval(tenant);
      expectError(await press(world, { channel: GENERAL, ts, actionId: APPROVE, user: { id: "U0VIEWER01", name: "viewer" } }), 403, "approval_not_eligible");
      expect(await approvalStatus(world.broker, tenant, approvalId)).toBe("pending");
    });

    it("answers 409 for a press on an approval already decided, which stays as decided", async () => {
      const { approvalId, ts } = await postedApproval(tenant);
      const denied = await call(world.broker, "POST", `/v1/approvals/${approvalId}/decide`, { ...asOperator(tenant), body: { decision: "deny" } });
      expect(denied.status, denied.text).toBe(200);
      expect((await press(world, { channel: GENERAL, ts, actionId: APPROVE })).status).toBe(409);
      expect(await approvalStatus(world.broker, tenant, approvalId)).toBe("denied");
    });

    it("acknowledges other interactions without deciding anything", async () => {
      const { ts } = await postedApproval(tenant);
      const request = world.slack.buttonPress({ channel: GENERAL, ts, actionId: APPROVE });
      const payload = { ...request.payload, type: "view_closed" };
      const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
      const timestamp = request.headers["x-slack-request-timestamp"]!;
      const answer = await sendInteraction(world.broker, { body, headers: { ...request.headers, "x-slack-signature": slackSignature(world.slack.signingSecret, timestamp, body) } });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.handled).toBe(false);
    });
  });

  describe("signed payloads that are no approval press", () => {
    const signedPost = (body: string) => {
      const timestamp = String(Math.floor(Date.now() / 1000));
      return sendInteraction(world.broker, {
        body,
        headers: { "content-type": "application/x-www-form-urlencoded", "x-slack-request-timestamp": timestamp, "x-slack-signature": slackSignature(world.slack.signingSecret, timestamp, body) },
      });
    };
    const form = (payload: string) => new URLSearchParams({ payload }).toString();
    const button = (value: unknown, user: unknown = { id: DEFAULT_SLACK_USER.id, team_id: DEFAULT_SLACK_USER.teamId }) =>
      JSON.stringify({ type: "block_actions", user, actions: [{ action_id: APPROVE, type: "button", value }] });

    it.each([
      ["payload that is not JSON", form("{not json")],
      ["payload that is an array", form("[1,2]")],
      ["button without a value", form(button(undefined))],
      ["button whose value is not JSON", form(button("approve it"))],
      ["button naming no uuid", form(button(JSON.stringify({ approval_id: "../../x", digest: "sha256:00" })))],
      ["press by no user", form(button(JSON.stringify({ approval_id: "6f1c2a8e-3b7d-4e5f-9a0b-1c2d3e4f5a6b", digest: "sha256:00" }), null))],
      ["user id that is not Slack's", form(button(JSON.stringify({ approval_id: "6f1c2a8e-3b7d-4e5f-9a0b-1c2d3e4f5a6b", digest: "sha256:00" }), { id: "<@U1>", team_id: "T1" }))],
      ["form without a payload", "other=1"],
    ])("answers 400 for a %s", async (_name, body) => {
      expectError(await signedPost(body), 400, "invalid_request");
    });

    it("answers 404 for a well-formed press on an approval that does not exist", async () => {
      expectError(await signedPost(form(button(JSON.stringify({ approval_id: "6f1c2a8e-3b7d-4e5f-9a0b-1c2d3e4f5a6b", digest: "sha256:00" })))), 404, "not_found");
    });

    it("refuses an approve whose digest is not the call's (409) and decides nothing", async () => {
      const { approvalId } = await postedApproval(tenant);
      expectError(await signedPost(form(button(JSON.stringify({ approval_id: approvalId, digest: `sha256:${"0".repeat(64)}` })))), 409, "approval_changed");
      expect(await approvalStatus(world.broker, tenant, approvalId)).toBe("pending");
    });
  });

  it("never writes a Slack token or the signing secret to the broker's log", async () => {
    const secrets = [...world.slack.issuedSecrets(), world.slack.signingSecret];
    expect(secrets.length).toBeGreaterThan(1);
    for (const line of world.broker.logs) for (const secret of secrets) expect(line).not.toContain(secret);
  });

  describe("reminders", () => {
    it("go into the request's thread, mentioning who is still needed", async () => {
      const { approvalId, ts } = await postedApproval(tenant);
      await world.broker.services.approvalDeliveries.enqueue({ id: approvalId, tenantId: tenant.tenantId }, "reminder", ["slack"], new Date().toISOString());
      const reminder = await deliverToSlack(world.broker, approvalId, "reminder");
      const reply = messageAt(reminder.ts);
      expect(reply.thread_ts).toBe(ts);
      expect(reply.text).toContain("Reminder");
      expect(JSON.stringify(reply.blocks)).toContain(`<@${DEFAULT_SLACK_USER.id}>`);
    });
  });
});
