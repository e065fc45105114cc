/**
 * An operator-configured provider at `http://<name>.localhost:<port>` is reached on loopback
 * without asking the lookup (src/shared/loopback.ts; its pure cases are in loopback.unit.test.ts).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, it } from "vitest";
import { createUpstreamClient } from "../src/providers/upstream-client.js";
import type { LookupFunction } from "../src/shared/loopback.js";

it("reaches an operator-configured provider at http://<name>.localhost:<port> on loopback, without the lookup", async () => {
  const server = createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}'));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const asked: string[] = [];
  const lookup: LookupFunction = (hostname, _options, callback) => {
    asked.push(hostname);
    callback(Object.assign(new Error(`${hostname} must not be resolved`), { code: "ENOTFOUND" }), "");
  };
  const upstream = createUpstreamClient({ lookup });
  try {
    const { port } = server.address() as AddressInfo;
    const response = await upstream.send(`http://scm.localhost:${port}`, { method: "GET", path: "/user" });
    expect(response).toMatchObject({ status: 200, body: { ok: true } });
    expect(asked).toEqual([]);
  } finally {
    await upstream.close();
    await new Promise((resolve) => server.close(resolve));
  }
});
