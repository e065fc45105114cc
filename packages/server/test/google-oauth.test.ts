/**
 * Google's OAuth through the broker against Google's sandbox: the authorize parameters that make
 * Google issue a refresh token on every consent, a refresh answered without a new refresh token
 * (the kept one keeps working), the account named by the Gmail profile or, for Sheets and Docs, by
 * the ID token, and revocation at Google's endpoint.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { gmailDeclaration } from "../src/providers/google/gmail.js";
import { connectAccount } from "./support/connect.js";
import { describeEachDatabase } from "./support/databases.js";
import { asOperator, call } from "./support/http.js";
import { execute, startToolWorld, type ToolWorld } from "./support/tool-execution.js";

describeEachDatabase("Google OAuth through the broker", (kind) => {
  let world: ToolWorld;
  beforeAll(async () => {
    world = await startToolWorld(kind);
  }, 60_000);
  afterAll(() => world?.close());

  const sandbox = (id: string) => world.fakes.described[id]!;
  const connection = (id: string) => call(world.broker, "GET", `/v1/connections/${id}`, asOperator(world.tenant));

  it("asks for offline access with consent and incremental scopes, and names the account by its Gmail address", async () => {
    const id = await connectAccount(world.broker, world.tenant, "gmail", { env: "test" });
    const asked = sandbox("gmail").stats.authorizeRequests.at(-1)!;
    expect(asked).toMatchObject({ access_type: "offline", prompt: "consent", include_granted_scopes: "true", code_challenge_method: "S256" });
    const scopes = gmailDeclaration.auth.type === "oauth2" ? gmailDeclaration.auth.scopes! : [];
    expect(asked.scope!.split(" ").sort()).toEqual([...scopes].sort());
    expect((await connection(id)).body).toMatchObject({ provider: "gmail", status: "active", display_name: "ada@example.com" });
  });

  it("keeps the refresh token when Google's refresh answers none, so the next refresh still works", async () => {
    const id = await connectAccount(world.broker, world.tenant, "gmail", { env: "test" });
    const gmail = sandbox("gmail");
    for (const round of [1, 2]) {
      const before = gmail.stats.refreshGrants;
      gmail.expireAllAccessTokens();
      const result = await execute(world.broker, world.jwt, { tool_name: "gmail.get_profile", connected_account_id: id });
      expect(result.status, `round ${round}: ${result.text}`).toBe(200);
      expect(gmail.stats.refreshGrants, `round ${round}`).toBe(before + 1);
    }
    expect((await connection(id)).body.status).toBe("active");
  });

  it.each(["google_sheets", "google_docs"])("names a %s connection from the ID token of the code exchange", async (provider) => {
    const id = await connectAccount(world.broker, world.tenant, provider, { env: "test" });
    expect(sandbox(provider).stats.authorizeRequests.at(-1)!.scope!.split(" ")).toEqual(expect.arrayContaining(["openid", "email"]));
    expect((await connection(id)).body).toMatchObject({ provider, status: "active", display_name: "ada@example.com" });
  });

  it("revokes the grant at Google's revocation endpoint when the connection is revoked", async () => {
    const id = await connectAccount(world.broker, world.tenant, "google_drive", { env: "test" });
    const drive = sandbox("google_drive");
    const before = drive.stats.revocations;
    const revoked = await call(world.broker, "DELETE", `/v1/connections/${id}`, asOperator(world.tenant));
    expect(revoked.status, revoked.text).toBeLessThan(300);
    await expect.poll(() => drive.stats.revocations, { timeout: 5_000 }).toBe(before + 1);
  });
});
