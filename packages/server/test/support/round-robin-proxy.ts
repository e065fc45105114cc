/**
 * A load balancer on loopback: each HTTP request goes to the next backend in turn (not each
 * connection, which a keep-alive client would pin to one backend). The Host header is passed
 * through, as a reverse proxy in front of BROKER_PUBLIC_URL does; responses stream (SSE).
 */
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";

export type RoundRobinProxy = {
  url: string;
  /** Where requests go, in turn; set once the backends listen (they need the proxy's URL first). */
  setBackends(urls: string[]): void;
  /** Requests each backend received, by URL. */
  counts: Map<string, number>;
  /** The backend of each request, in order. */
  served: string[];
  close(): Promise<void>;
};

export async function startRoundRobinProxy(): Promise<RoundRobinProxy> {
  let backends: URL[] = [];
  let next = 0;
  const counts = new Map<string, number>();
  const served: string[] = [];
  const server = createServer((incoming, outgoing) => {
    const backend = backends[next++ % backends.length];
    if (!backend) return void outgoing.writeHead(503).end("no backend");
    counts.set(backend.origin, (counts.get(backend.origin) ?? 0) + 1);
    served.push(backend.origin);
    const forwarded = httpRequest(
      { host: backend.hostname, port: backend.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on("error", () => outgoing.headersSent || outgoing.writeHead(502).end("backend failed"));
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setBackends: (urls) => {
      backends = urls.map((url) => new URL(url));
    },
    counts,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
