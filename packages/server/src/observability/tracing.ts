/**
 * Traces of tool calls (OpenTelemetry, exported over OTLP/HTTP). Each app builds its own tracer
 * provider, context manager and propagator here: nothing is registered globally, so two brokers
 * in one process (the tests) never share spans, and app close flushes and stops its own exporter.
 *
 * Tracing off is `NO_TRACING`: `inSpan` calls the work directly, nothing is allocated for spans,
 * no context is kept, and no trace context is read from or written to any request.
 *
 * What goes into a span is chosen by its caller from ids, names and codes only; see
 * docs/production.md ("Traces") for the list, and for what is never recorded.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter as JsonTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtobufTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { AlwaysOffSampler, AlwaysOnSampler, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, TracerProvider, type Sampler } from "@opentelemetry/sdk-trace";
import { ATTR_ERROR_TYPE, ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from "@opentelemetry/semantic-conventions";
import { BrokerError } from "../errors.js";
import { API_VERSION } from "../version.js";
import type { SamplerConfig, TracingConfig } from "./tracing-config.js";

export { SpanKind, SpanStatusCode, type Attributes, type Span } from "@opentelemetry/api";

/** Where a caller's trace context may come from: request headers, or an MCP request's `params._meta`. */
export type TraceCarrier = Readonly<Record<string, unknown>>;

export type SpanOptions = {
  kind?: SpanKind;
  attributes?: Attributes;
  /** Joins the caller's trace (W3C `traceparent`/`tracestate` in it) instead of the current span's. */
  carrier?: TraceCarrier | undefined;
};

export type Tracing = {
  readonly enabled: boolean;
  /**
   * Runs `work` in a span that is a child of the current one (or of the carrier's context). The
   * span ends when the work settles; a thrown error sets `error.type` (a BrokerError's code) and,
   * for a fault of the broker or the upstream (5xx, or not a BrokerError), the error status.
   * Error messages are never recorded: they may quote what a caller sent.
   */
  inSpan<T>(name: string, options: SpanOptions, work: (span: Span) => Promise<T>): Promise<T>;
  /** Sets attributes on the current span (none when not tracing). */
  annotate(attributes: Attributes): void;
  /** The trace id of the current span; null when tracing is off or no span is current. */
  traceId(): string | null;
  /** Writes the current span's W3C `traceparent` (and `tracestate`) into `headers`. */
  inject(headers: Record<string, string>): void;
  /** Exports what is buffered now (tests, and shutdown). */
  flush(): Promise<void>;
  /** Flushes and stops the exporter; spans started later are dropped. */
  shutdown(): Promise<void>;
};

const NOOP_SPAN = trace.wrapSpanContext({ traceId: "00000000000000000000000000000000", spanId: "0000000000000000", traceFlags: 0 });

export const NO_TRACING: Tracing = {
  enabled: false,
  inSpan: (_name, _options, work) => work(NOOP_SPAN),
  annotate: () => {},
  traceId: () => null,
  inject: () => {},
  flush: async () => {},
  shutdown: async () => {},
};

/** The W3C members of a carrier, as text: anything else in it (an MCP `_meta`'s other keys, baggage) is not read. */
function traceFields(carrier: TraceCarrier): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const name of ["traceparent", "tracestate"]) {
    const raw = carrier[name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    // A tracestate longer than the W3C's 512 characters may be dropped; longer input is not parsed at all.
    if (typeof value === "string" && value.length <= 1024) fields[name] = value;
  }
  return fields;
}

function samplerOf({ root, parentBased, ratio }: SamplerConfig): Sampler {
  const base = root === "always_on" ? new AlwaysOnSampler() : root === "always_off" ? new AlwaysOffSampler() : new TraceIdRatioBasedSampler(ratio);
  return parentBased ? new ParentBasedSampler({ root: base }) : base;
}

function exporterOf(exporter: TracingConfig["exporter"]) {
  const options = { url: exporter.url, headers: exporter.headers, timeoutMillis: exporter.timeoutMillis };
  return exporter.protocol === "http/json" ? new JsonTraceExporter(options) : new ProtobufTraceExporter(options);
}

/** What a thrown error says about the span: its type (a code or a class name) and whether it is a fault. */
function recordFailure(span: Span, error: unknown) {
  if (error instanceof BrokerError) {
    span.setAttribute(ATTR_ERROR_TYPE, error.code);
    if (error.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    return;
  }
  span.setAttribute(ATTR_ERROR_TYPE, error instanceof Error ? error.constructor.name : "_OTHER");
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/** A tracer of its own for one app, or NO_TRACING when `config` is undefined. */
export function createTracing(config: TracingConfig | undefined): Tracing {
  if (!config) return NO_TRACING;
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ ...config.resourceAttributes, [ATTR_SERVICE_NAME]: config.serviceName, [ATTR_SERVICE_VERSION]: API_VERSION }),
    sampler: samplerOf(config.sampler),
    spanProcessors: [new BatchSpanProcessor({ exporter: exporterOf(config.exporter), ...config.batch })],
  });
  return tracingWith(provider.getTracer("toolbroker", API_VERSION), provider);
}

/** The tracing over one tracer; `provider` is what flush and shutdown reach (tests pass their own). */
export function tracingWith(tracer: Tracer, provider: { forceFlush(): Promise<void>; shutdown(): Promise<void> }): Tracing {
  const contexts = new AsyncLocalStorageContextManager().enable();
  const propagator = new W3CTraceContextPropagator();
  const parentOf = (carrier: TraceCarrier | undefined): Context =>
    carrier ? propagator.extract(ROOT_CONTEXT, traceFields(carrier), { get: (fields, key) => fields[key], keys: (fields) => Object.keys(fields) }) : contexts.active();
  const current = () => trace.getSpan(contexts.active());
  let stopped = false;

  return {
    enabled: true,
    async inSpan(name, options, work) {
      const parent = parentOf(options.carrier);
      const span = tracer.startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, ...(options.attributes ? { attributes: options.attributes } : {}) }, parent);
      try {
        return await contexts.with(trace.setSpan(parent, span), () => work(span));
      } catch (error) {
        recordFailure(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
    annotate(attributes) {
      current()?.setAttributes(attributes);
    },
    traceId() {
      const context = current()?.spanContext();
      return context && trace.isSpanContextValid(context) ? context.traceId : null;
    },
    inject(headers) {
      propagator.inject(contexts.active(), headers, { set: (carrier, key, value) => ((carrier as Record<string, string>)[key] = value) });
    },
    flush: () => (stopped ? Promise.resolve() : provider.forceFlush()),
    async shutdown() {
      if (stopped) return;
      stopped = true;
      await provider.shutdown();
      contexts.disable();
    },
  };
}
