/**
 * One HTTP POST to a webhook endpoint through undici: a hard timeout over connect, headers and
 * body, redirects never followed (undici's `request` does not follow them), and every
 * connection's addresses checked by the URL rules at connect time.
 */
import { Agent, request } from "undici";
import type { Clock } from "../clock.js";
import { parseRetryAfter, type SendResult } from "./retry-policy.js";
import type { UrlSafety } from "../shared/url-safety.js";

export type OutboundWebhook = { url: string; headers: Record<string, string>; body: string };

const USER_AGENT = "Toolbroker-Webhooks/1";
/** Responses are read and discarded; a body larger than this closes the connection instead. */
const MAX_RESPONSE_BYTES = 64 * 1024;

const TIMEOUT_CODES = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "ETIMEDOUT"]);

/** A short, secret-free description of why no response arrived. */
export function describeSendError(error: unknown, timeoutMs: number): string {
  const err = error as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err.code ?? err.cause?.code;
  if (code === "ERR_WEBHOOK_ADDRESS_REFUSED") return err.code ? err.message! : err.cause!.message!;
  if (err.name === "TimeoutError" || err.name === "AbortError" || (code && TIMEOUT_CODES.has(code))) return `timed out after ${timeoutMs} ms`;
  if (code && (code.startsWith("ERR_TLS") || code.startsWith("CERT_") || code.includes("SSL") || code.includes("CERT"))) return `TLS handshake failed (${code})`;
  if (code) return `connection failed (${code})`;
  return "network error";
}

type SenderDeps = { urlSafety: Pick<UrlSafety, "assertSendable" | "connectLookup">; timeoutMs: number; clock: Clock };

export function createWebhookSender({ urlSafety, timeoutMs, clock }: SenderDeps) {
  const agent = new Agent({
    connect: { lookup: urlSafety.connectLookup, timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    keepAliveTimeout: 10_000,
  });

  return {
    /** Never throws for the endpoint's faults; throws only when `stop` aborts (the worker is shutting down). */
    async send(webhook: OutboundWebhook, stop?: AbortSignal): Promise<SendResult> {
      const started = performance.now();
      const latencyMs = () => Math.round(performance.now() - started);
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = stop ? AbortSignal.any([stop, timeout]) : timeout;
      try {
        urlSafety.assertSendable(webhook.url);
        const response = await request(webhook.url, {
          method: "POST",
          headers: { "content-type": "application/json", "user-agent": USER_AGENT, ...webhook.headers },
          body: webhook.body,
          dispatcher: agent,
          signal,
        });
        await response.body.dump({ limit: MAX_RESPONSE_BYTES, signal }).catch(() => undefined);
        const retryAfterMs = parseRetryAfter(response.headers["retry-after"], clock.now());
        return { kind: "response", status: response.statusCode, retryAfterMs, latencyMs: latencyMs() };
      } catch (error) {
        if (stop?.aborted) throw error;
        return { kind: "error", error: describeSendError(error, timeoutMs), latencyMs: latencyMs() };
      }
    },
    close: () => agent.close(),
  };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;
