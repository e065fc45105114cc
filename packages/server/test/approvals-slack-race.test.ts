/**
 * Slack: a press approves only the call its message showed. The button's digest is checked by
 * decide under the approval's lock, so an edit landing between the press reading the approval and
 * its vote (another approver in the console) makes the press refused, not counted for the edited
 * call. The race is made deterministic by letting the edit land right after the press read the approval.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createSlackInteractivity } from "../src/approvals/slack-interactivity.js";
import { digestOf } from "../src/approvals/approval-digest.js";
import { describeEachDatabase } from "./support/databases.js";
import { DEFAULT_SLACK_USER } from "./support/fake-upstreams/index.js";
import { deletion, putPolicy, requestApproval } from "./support/approvals.js";
import { addMember, showApproval, vote, type TestMember } from "./support/approval-votes.js";
import { createSlackTenant, linkSlackUser, startSlackWorld, type SlackTenant, type SlackWorld } from "./support/slack-approvals.js";

const WANDA = `${DEFAULT_SLACK_USER.teamId}:${DEFAULT_SLACK_USER.id}`;

describeEachDatabase("a Slack press racing an edit", (kind) => {
  let world: SlackWorld;
  let tenant: SlackTenant;
  let bo: TestMember;

  beforeAll(async () => {
    world = await startSlackWorld(kind);
    tenant = await createSlackTenant(world, "Acme");
    await linkSlackUser(world.broker, tenant, WANDA);
    bo = await addMember(world.broker, tenant, "admin", { display_name: "Bo" });
    await putPolicy(world.broker, tenant, [{ id: "two-admins", effect: "require_approval", tools: ["scm.delete_repository"], approval: { approvers: { count: 2, of: "admins" } } }]);
  });
  afterAll(() => world?.close());

  it("does not count Wanda's press on the hello-world message for the spoon-knife edit that landed meanwhile", async () => {
    const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
    const { services } = world.broker;
    const shown = await services.approvals.get(tenant.tenantId, approval_id);
    const interactivity = createSlackInteractivity({
      approvals: services.approvals,
      // The press reads the approval (as the message showed it); Bo's edit then lands before the vote.
      findApproval: async (id) => {
        const read = await services.approvalQueries.findById(id);
        const edited = await vote(world.broker, bo, approval_id, { decision: "approve", arguments: { owner: tenant.owner, repo: "spoon-knife" } });
        expect(edited.status, edited.text).toBe(200);
        return read;
      },
      listMembers: (tenantId) => services.store.db.selectFrom("tenant_members").selectAll().where("tenant_id", "=", tenantId).execute(),
    });
    const value = JSON.stringify({ approval_id, digest: digestOf(shown) });
    const payload = JSON.stringify({ type: "block_actions", user: { id: DEFAULT_SLACK_USER.id, team_id: DEFAULT_SLACK_USER.teamId }, actions: [{ action_id: "toolbroker_approval_approve", type: "button", value }] });
    await expect(interactivity.press(payload)).rejects.toMatchObject({ code: "approval_changed", details: { expected: digestOf(shown) } });
    const after = await showApproval(world.broker, bo, approval_id);
    expect(after.body.status, "Wanda approved spoon-knife by pressing Approve under a hello-world message").toBe("pending");
    expect(after.body.approvers).toMatchObject({ approved: 1 });
    expect((after.body.approvers as { votes: { via: string }[] }).votes.map((cast) => cast.via)).toEqual(["api"]);
  });
});
