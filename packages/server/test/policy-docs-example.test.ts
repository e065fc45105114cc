/** The policy example of docs/policy.md, stored and simulated: the page says what it decides. */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { asOperator, call } from "./support/http.js";

const PAGE = readFileSync(new URL("../../../docs/policy.md", import.meta.url), "utf8");
const EXAMPLE = JSON.parse(/# Policy:[\s\S]*?```json\n([\s\S]*?)```/.exec(PAGE)![1]!);

let broker: TestBroker;
let tenant: TestTenant;

beforeAll(async () => {
  broker = await startBroker("sqlite");
  tenant = await createTenant(broker);
});
afterAll(async () => broker?.close());

it("stores the example of docs/policy.md and decides as the page says", async () => {
  const stored = await call(broker, "PUT", "/v1/policy", { ...asOperator(tenant), body: EXAMPLE });
  expect(stored.status, stored.text).toBe(200);
  const decide = async (tool_name: string, args: Record<string, unknown>, end_user_id?: string) => {
    const body = { agent_app_id: tenant.agentAppId, env: "live", tool_name, arguments: args, ...(end_user_id ? { end_user_id } : {}) };
    const result = await call(broker, "POST", "/v1/policy/simulate", { ...asOperator(tenant), body });
    expect(result.status, result.text).toBe(200);
    return result.body.decision as string;
  };
  expect(await decide("scm.delete_repository", { owner: "acme", repo: "prod-api" })).toBe("deny");
  expect(await decide("scm.delete_repository", { owner: "acme", repo: "sandbox" })).toBe("require_approval");
  expect(await decide("chat.post_message", { channel: "C1", text: "hi" }, "user-42")).toBe("require_approval");
  expect(await decide("chat.post_message", { channel: "C1", text: "hi" })).toBe("allow");
  expect(await decide("scm.list_repositories", {})).toBe("allow");
});

it("stores the approval block example of docs/policy.md, and refuses an approval block on another effect", async () => {
  const rule = JSON.parse(/## Approval rules[\s\S]*?```json\n([\s\S]*?)```/.exec(PAGE)![1]!);
  const stored = await call(broker, "PUT", "/v1/policy", { ...asOperator(tenant), body: { env: "test", rules: [rule] } });
  expect(stored.status, stored.text).toBe(200);
  const misplaced = await call(broker, "PUT", "/v1/policy", { ...asOperator(tenant), body: { env: "test", rules: [{ ...rule, effect: "allow" }] } });
  expect(misplaced.status).toBe(422);
  expect(misplaced.body.error.details.fields[0].field).toBe("/rules/0/approval");
  const lateReminder = { ...rule, approval: { ...rule.approval, remind_before_seconds: 3600 } };
  const refused = await call(broker, "PUT", "/v1/policy", { ...asOperator(tenant), body: { env: "test", rules: [lateReminder] } });
  expect(refused.status).toBe(422);
  expect(refused.body.error.details.fields[0].field).toBe("/rules/0/approval/remind_before_seconds");
});

it("refuses an all_of approval rule naming someone who is not a member of the tenant, and stores one naming members", async () => {
  const members = await call(broker, "GET", "/v1/members", asOperator(tenant));
  expect(members.status, members.text).toBe(200);
  const me = members.body.data[0].id as string;
  const rule = (all_of: string[]) => ({ id: "two-people", effect: "require_approval", tools: ["scm.delete_repository"], approval: { approvers: { all_of } } });
  const stranger = "6f1c2f7e-9a7b-4c1e-8d2a-3b4c5d6e7f80";
  const refused = await call(broker, "PUT", "/v1/policy", { ...asOperator(tenant), body: { env: "test", rules: [rule([me, stranger])] } });
  expect(refused.status).toBe(422);
  expect(refused.body.error.details.fields[0].field).toBe("/rules/0/approval/approvers/all_of/1");
  const stored = await call(broker, "PUT", "/v1/policy", { ...asOperator(tenant), body: { env: "test", rules: [rule([me.toUpperCase()])] } });
  expect(stored.status, stored.text).toBe(200);
});
