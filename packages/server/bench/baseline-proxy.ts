/**
 * The baseline: a minimal Node pass-through proxy (undici, keep-alive) in front of the same fake
 * upstream. It does what any hop must do — parse, forward, relay — and nothing else.
 */
import { createServer } from "node:http";
import { Pool } from "undici";

const upstream = new Pool(process.env.UPSTREAM_URL!, { connections: 128, keepAliveTimeout: 60_000 });

const server = createServer(async (request, response) => {
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const result = await upstream.request({
      method: "GET",
      path: "/user",
      headers: { authorization: request.headers["x-upstream-authorization"] as string, accept: "application/json" },
    });
    const body = await result.body.text();
    response.writeHead(result.statusCode, { "content-type": "application/json" });
    response.end(body);
  } catch {
    response.writeHead(502).end();
  }
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === "object" && address ? address.port : 0}\n`);
});
