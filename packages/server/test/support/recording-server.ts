/**
 * A loopback HTTP server that answers 200 `{}` to everything and records every request it gets,
 * headers and body included: the "new address" a re-pointed provider would send credentials to.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export type RecordedRequest = { method: string; url: string; headers: Record<string, string | string[] | undefined>; body: string };
export type RecordingServer = { url: string; requests: RecordedRequest[]; close(): Promise<void> };

export async function startRecordingServer(): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
