/**
 * Issue 6, done when: an operator registers an endpoint, revokes a connection through the API,
 * and the endpoint receives a verified `connection.revoked`.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { connectAccount } from "./support/connect.js";
import { startConnectionsWorld, type ConnectionsWorld } from "./support/connections.js";
import { describeEachDatabase } from "./support/databases.js";
import { asOperator, call } from "./support/http.js";
import { startWebhookReceiver, verifyWebhook, type WebhookReceiver } from "./support/webhook-receiver.js";
import { registerEndpoint } from "./support/webhooks.js";

describeEachDatabase("connection.revoked from DELETE /v1/connections/{id}", (kind) => {
  let world: ConnectionsWorld;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    world = await startConnectionsWorld(kind);
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await world.close();
    await receiver.close();
  });

  it("signs and delivers the event, with the handle and no token in it", async () => {
    const endpoint = await registerEndpoint(world.broker, world.tenant, { url: receiver.url, events: ["connection.revoked"] });
    const connectionId = await connectAccount(world.broker, world.tenant, "scm");
    const revoked = await call(world.broker, "DELETE", `/v1/connections/${connectionId}`, asOperator(world.tenant));
    expect(revoked.status, revoked.text).toBe(200);

    const [delivery] = await receiver.waitFor(1, 10_000);
    const payload = verifyWebhook(endpoint.secret, delivery!) as { type: string; data: Record<string, unknown> };
    expect(payload.type).toBe("connection.revoked");
    expect(payload.data).toMatchObject({ connected_account_id: connectionId, provider: "scm", env: "test" });
    for (const secret of world.fakes.github.issuedSecrets()) expect(delivery!.body).not.toContain(secret);
  });
});
