/**
 * `npm run bench -- --tracing`: where the broker's traces go during the benchmark. A collector's
 * OTLP/HTTP endpoint on loopback that takes every export (JSON or protobuf), counts it and
 * answers 200, in the benchmark's own process (whose CPU is not the broker's).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export type OtlpSink = { url: string; exports: () => number; bytes: () => number; close(): Promise<void> };

export async function startOtlpSink(): Promise<OtlpSink> {
  let exports = 0;
  let bytes = 0;
  const server = createServer((req, res) => {
    req.on("data", (chunk: Buffer) => (bytes += chunk.length));
    req.on("end", () => {
      exports += 1;
      res.writeHead(200, { "content-type": String(req.headers["content-type"] ?? "application/x-protobuf") }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exports: () => exports,
    bytes: () => bytes,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The broker's tracing settings for a run with traces on: protobuf unless the benchmark's own
 * OTEL_EXPORTER_OTLP_PROTOCOL says otherwise, the SDK's default batching (other OTEL_* variables
 * set for the benchmark reach the broker as they are).
 */
export const tracingEnvironment = (sink: OtlpSink, protocol = "http/protobuf") => ({ OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_EXPORTER_OTLP_PROTOCOL: protocol, OTEL_SERVICE_NAME: "toolbroker-bench" });
