/**
 * An OTLP/HTTP trace receiver on loopback, like a collector's: it accepts `POST /v1/traces`
 * (JSON or protobuf), answers 200 with an empty partial-success body, keeps every raw request (for
 * searches for secrets) and decodes the JSON ones into spans a test can walk as a tree.
 */
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export type ReceivedExport = { path: string; contentType: string; headers: Record<string, string | string[] | undefined>; body: Buffer };

export type ExportedSpan = {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's numbering: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, unknown>;
  /** 0 unset, 1 ok, 2 error. */
  statusCode: number;
  resource: Record<string, unknown>;
};

export type OtlpReceiver = {
  /** Base URL, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  exports: ReceivedExport[];
  /** Every span of every JSON export so far. */
  spans(): ExportedSpan[];
  /** Every byte received, as text: what a search for leaked secrets reads. */
  rawText(): string;
  /**
   * The spans of one trace once at least `count` have arrived (at most 5 s): an export the batch
   * processor's timer started may still be on its way when a flush resolves.
   */
  spansOfTrace(traceId: string, count: number): Promise<ExportedSpan[]>;
  close(): Promise<void>;
};

type OtlpValue = { stringValue?: string; boolValue?: boolean; intValue?: string | number; doubleValue?: number; arrayValue?: { values?: OtlpValue[] } };
type OtlpAttribute = { key: string; value: OtlpValue };

function valueOf(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  return undefined;
}

const attributesOf = (list: OtlpAttribute[] | undefined) => Object.fromEntries((list ?? []).map(({ key, value }) => [key, valueOf(value)]));

function spansOf(body: Buffer): ExportedSpan[] {
  const document = JSON.parse(body.toString("utf8")) as {
    resourceSpans?: { resource?: { attributes?: OtlpAttribute[] }; scopeSpans?: { spans?: Record<string, any>[] }[] }[];
  };
  return (document.resourceSpans ?? []).flatMap((resourceSpan) =>
    (resourceSpan.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: String(span.traceId),
        spanId: String(span.spanId),
        parentSpanId: String(span.parentSpanId ?? ""),
        name: String(span.name),
        kind: Number(span.kind),
        attributes: attributesOf(span.attributes),
        statusCode: Number(span.status?.code ?? 0),
        resource: attributesOf(resourceSpan.resource?.attributes),
      })),
    ),
  );
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const exports: ReceivedExport[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const contentType = String(req.headers["content-type"] ?? "");
      if (req.method !== "POST" || req.url !== "/v1/traces") {
        res.writeHead(404).end();
        return;
      }
      exports.push({ path: req.url, contentType, headers: req.headers, body: Buffer.concat(chunks) });
      if (contentType.startsWith("application/json")) res.writeHead(200, { "content-type": "application/json" }).end("{}");
      else res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const spans = () => exports.filter((received) => received.contentType.startsWith("application/json")).flatMap((received) => spansOf(received.body));
  return {
    url: `http://127.0.0.1:${port}`,
    exports,
    async spansOfTrace(traceId, count) {
      const deadline = Date.now() + 5_000;
      for (;;) {
        const found = spans().filter((span) => span.traceId === traceId);
        if (found.length >= count || Date.now() > deadline) return found;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    spans: () => exports.filter((received) => received.contentType.startsWith("application/json")).flatMap((received) => spansOf(received.body)),
    rawText: () => exports.map((received) => received.body.toString("latin1")).join("\n"),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The environment that points a broker's traces at `receiver`, exported every 50 ms. */
export const tracingEnvironment = (receiver: OtlpReceiver, protocol: "http/json" | "http/protobuf" = "http/json"): Record<string, string> => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
  OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
  OTEL_BSP_SCHEDULE_DELAY: "50",
  OTEL_SERVICE_NAME: "toolbroker-under-test",
});

/** A W3C trace context a caller would send: a fresh trace id and the caller's own span id. */
export function callerTraceContext(traceId = randomHex(16)) {
  const spanId = randomHex(8);
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

const randomHex = (bytes: number) => randomBytes(bytes).toString("hex");
