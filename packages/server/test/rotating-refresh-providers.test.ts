/**
 * Microsoft, Zoom and Box rotate refresh tokens: each refresh answers a new one and the old one
 * is dead (invalid_grant). Through their sandboxes, a call whose access token the vendor no longer
 * takes is refreshed and retried, and a second refresh later works too: the broker stored the
 * rotated token (refreshing with the first one again would be refused). Microsoft issues a refresh
 * token only when `offline_access` is asked for, so this also proves the declaration asks for it.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "./support/databases.js";
import { connectAccount } from "./support/connect.js";
import { execute, startToolWorld, type ToolWorld } from "./support/tool-execution.js";

const CASES = [
  { provider: "microsoft_outlook", tool: "microsoft_outlook.list_mail_folders", args: { top: 5 } },
  { provider: "zoom", tool: "zoom.get_user", args: {} },
  { provider: "box", tool: "box.get_current_user", args: {} },
];

describeEachDatabase("providers that rotate refresh tokens", (kind) => {
  let world: ToolWorld;

  beforeAll(async () => {
    world = await startToolWorld(kind);
  }, 60_000);
  afterAll(() => world?.close());

  it.each(CASES)("$provider: refreshes after the vendor refuses the access token, twice, with the rotated refresh token", async ({ provider, tool, args }) => {
    const sandbox = world.fakes.described[provider]!;
    const connected_account_id = await connectAccount(world.broker, world.tenant, provider, { env: "test" });
    const refreshes = () => sandbox.stats.tokenGrants.filter((grant) => grant.grantType === "refresh_token").length;
    const before = refreshes();

    for (const round of [1, 2]) {
      sandbox.expireAllAccessTokens();
      const result = await execute(world.broker, world.jwt, { tool_name: tool, arguments: args, connected_account_id });
      expect(result.status, `round ${round}: ${result.text}`).toBe(200);
      expect(refreshes() - before, `round ${round}`).toBe(round);
    }
  });
});
