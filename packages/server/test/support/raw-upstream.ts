/**
 * A bare upstream API on 127.0.0.1 for tests of tenant-defined tools: each request goes to a
 * handler that sees the request line as received (query still encoded) and answers what it likes.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type RawUpstream = {
  url: string;
  /** Request lines (`GET /api/x?y=z`) received so far. */
  received: string[];
  close(): Promise<void>;
};

export type RawHandler = (request: IncomingMessage, response: ServerResponse) => void;

export async function startRawUpstream(handler: RawHandler): Promise<RawUpstream> {
  const received: string[] = [];
  const server = createServer((request, response) => {
    received.push(`${request.method} ${request.url}`);
    request.resume();
    request.on("end", () => handler(request, response));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function answer(response: ServerResponse, status: number, body: string, contentType = "application/json") {
  response.writeHead(status, { "content-type": contentType, "content-length": Buffer.byteLength(body) });
  response.end(body);
}
