/**
 * Performs one tool call at the provider in two parts, so that a write-ahead mark can be written
 * between them (tools/perform.ts): `prepare` opens the credential (a connection's tokens refreshed
 * when due) and builds the request the tool declares; `send` sends it, refreshes and retries once
 * on 401, and checks the response against the tool's declared shape. Every failure becomes a
 * `failed` outcome that says whether the request may have left the broker.
 */
import { BrokerError } from "../errors.js";
import { RequestNotSentError, type UpstreamClient, type UpstreamResponse } from "../providers/upstream-client.js";
import type { CredentialHandle } from "./credential-resolution.js";
import type { CallOutcome } from "../invocations/invocation-states.js";
import type { PresentedCredential } from "../providers/provider-types.js";
import { resolveApiBase } from "../providers/connection-values.js";
import { basicCredentialsOf, MAX_RESULT_VALUES, scrub, scrubTargets } from "./scrub.js";
import type { CatalogueTool } from "../catalogue/tool-catalogue.js";
import type { CredentialRefresher } from "../connections/credential-refresher.js";
import { NO_TRACING, SpanKind, SpanStatusCode, type Span, type Tracing } from "../observability/tracing.js";
import { ATTR, ATTR_ERROR_TYPE, ATTR_HTTP_RESPONSE_STATUS_CODE, upstreamUrlAttributes } from "../observability/tracing-attributes.js";

const MAX_UPSTREAM_MESSAGE = 500;

function upstreamMessage(body: unknown): string | undefined {
  if (typeof body === "string") return body.slice(0, MAX_UPSTREAM_MESSAGE) || undefined;
  if (!body || typeof body !== "object") return undefined;
  const b = body as Record<string, any>;
  const message = b.message ?? b.error_description ?? b.errors?.[0]?.message ?? (typeof b.error === "string" ? b.error : undefined);
  return typeof message === "string" ? message.slice(0, MAX_UPSTREAM_MESSAGE) : undefined;
}

type UpstreamCallDeps = {
  upstream: UpstreamClient;
  refresher: Pick<CredentialRefresher, "getFreshCredentials" | "forceRefresh" | "assertActive">;
  /** Each request to the provider is an HTTP client span (observability/tracing-attributes.ts, `upstreamUrlAttributes`). */
  tracing?: Tracing | undefined;
};

/** How a prepared call is sent: `propagateTraceContext` adds the request span's `traceparent`/`tracestate` headers (the tenant's choice). */
export type SendOptions = { propagateTraceContext?: boolean };

/** The answer's status on the request span; a 4xx or 5xx is the client span's error, as the HTTP conventions say. */
function noteResponse(span: Span, status: number) {
  if (!span.isRecording()) return;
  span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
  if (status >= 400) {
    span.setAttribute(ATTR_ERROR_TYPE, String(status));
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
}

/** A provider's OAuth client changes rarely: the forms of its secret are computed once per client. */
const clientSecretForms = new WeakMap<object, string[]>();
function clientSecretTargets(client: { clientId: string; clientSecret: string }): string[] {
  let forms = clientSecretForms.get(client);
  if (!forms) {
    forms = scrubTargets([client.clientSecret, ...basicCredentialsOf(client.clientId, client.clientSecret)]);
    clientSecretForms.set(client, forms);
  }
  return forms;
}

/**
 * What a credential was sent as, for the forms that do not contain it as text (a provider's
 * "Basic base64(…)"): each header and query value, or its token after an auth scheme.
 */
function presentedForms(presented: PresentedCredential): string[] {
  const values = [...Object.values(presented.headers), ...Object.values(presented.query ?? {})];
  return values.map((value) => /^[A-Za-z][\w.+-]* +(\S+)$/.exec(value)?.[1] ?? value);
}

/** The credentials of one call, each in every encoding it may come back in (see scrub.ts). */
function callSecrets(client: { clientId: string; clientSecret: string } | undefined) {
  const raw = new Set<string>();
  let targets: string[] | undefined;
  return {
    add(...secrets: string[]) {
      for (const secret of secrets) raw.add(secret);
      targets = undefined;
    },
    /** Computed once per call, when the first answer is scrubbed. */
    get targets(): string[] {
      targets ??= [...scrubTargets(raw), ...(client ? clientSecretTargets(client) : [])].sort((a, b) => b.length - a.length);
      return targets;
    },
  };
}
type CallSecrets = ReturnType<typeof callSecrets>;

/** A credential as it is presented: an OAuth access token or an API key. */
type Credential = { kind: "oauth2" | "api_key"; secret: string };

/**
 * A call ready to leave: its credential opened (a connection's tokens fresh) and its request
 * built. Nothing of it has been handed to the network yet.
 */
export type PreparedCall = {
  entry: CatalogueTool;
  handle: CredentialHandle;
  args: Record<string, unknown>;
  request: ReturnType<CatalogueTool["tool"]["buildRequest"]>;
  baseUrl: string;
  credential: Credential;
  secrets: CallSecrets;
};

/** What preparing answered: the call, ready to send, or the outcome of a call that cannot be sent. */
export type Preparation = { ready: PreparedCall } | { outcome: CallOutcome };

export function createUpstreamCall({ upstream, refresher, tracing = NO_TRACING }: UpstreamCallDeps) {
  const authStatus = (entry: CatalogueTool, response: UpstreamResponse) =>
    response.status === 401 ? 401 : entry.provider.inspectApiResponse?.(response)?.status === 401 ? 401 : response.status;

  /** The answer of a provider that did answer, as the tool's result or an upstream_error. */
  function outcomeOf(entry: CatalogueTool, response: UpstreamResponse, args: Record<string, unknown>, callSecrets: CallSecrets, latencyMs: number): CallOutcome {
    const secrets = callSecrets.targets;
    const { provider } = entry;
    const failed = (error: BrokerError): CallOutcome => ({ kind: "failed", error, upstreamStatus: response.status, latencyMs, requestMayHaveLeft: true });
    const vendorError = provider.inspectApiResponse?.(response);
    if (response.status < 200 || response.status >= 300 || vendorError) {
      const message = vendorError?.message ?? upstreamMessage(response.body);
      return failed(
        new BrokerError("upstream_error", `${provider.displayName} answered ${response.status}${message ? `: ${scrub(message, secrets) as string}` : ""}`, {
          upstream_status: response.status,
          ...(message ? { upstream_message: scrub(message, secrets) } : {}),
        }),
      );
    }
    const unexpected = (problem: string) =>
      failed(
        new BrokerError("upstream_error", `${provider.displayName} answered ${response.status} with a body ${entry.tool.name} does not understand`, {
          upstream_status: response.status,
          reason: "unexpected_response",
          problem,
        }),
      );
    if (!entry.validateResponse(response.body)) {
      const first = entry.validateResponse.errors?.[0];
      return unexpected(`${first?.instancePath || "/"} ${first?.message ?? "is invalid"}`);
    }
    try {
      return { kind: "succeeded", result: scrub(entry.tool.mapResponse(response, args), secrets, { maxValues: MAX_RESULT_VALUES }), upstreamStatus: response.status, latencyMs };
    } catch (error) {
      // A mapping hook's refusal, or an answer beyond the mapping budget (response_too_large).
      if (error instanceof BrokerError) return failed(new BrokerError(error.code, error.message, { upstream_status: response.status, ...error.details }, { status: error.status }));
      return unexpected("the body could not be mapped");
    }
  }

  /** Sends the tool's request once with `credential`, in a span of its own; answers the provider's response. */
  function sendOnce(prepared: PreparedCall, credential: Credential, resendCount: number, options: SendOptions) {
    const { entry, request, secrets } = prepared;
    const { provider } = entry;
    const presented = provider.presentCredential(credential);
    secrets.add(credential.secret, ...presentedForms(presented));
    const headers = { ...provider.apiHeaders, ...request.headers, ...presented.headers };
    if (!tracing.enabled) return upstream.send(prepared.baseUrl, { ...request, headers, query: { ...request.query, ...presented.query } }, { guarded: provider.tenantDefined === true });
    const template = entry.tool.pathTemplate;
    return tracing.inSpan(template === undefined ? request.method : `${request.method} ${template}`, { kind: SpanKind.CLIENT }, async (span) => {
      if (span.isRecording()) {
        span.setAttributes(upstreamUrlAttributes(request.method, prepared.baseUrl, template, resendCount));
        span.setAttribute(ATTR.traceContextSent, options.propagateTraceContext === true);
      }
      // The request span's own context: the provider's spans become its children.
      if (options.propagateTraceContext) tracing.inject(headers);
      const response = await upstream.send(prepared.baseUrl, { ...request, headers, query: { ...request.query, ...presented.query } }, { guarded: provider.tenantDefined === true });
      noteResponse(span, response.status);
      return response;
    });
  }

  /** A failure after the request was handed to the network: whether it may have reached the provider. */
  function failedInFlight(error: unknown): CallOutcome {
    if (error instanceof RequestNotSentError) return { kind: "failed", error, upstreamStatus: null, latencyMs: null, requestMayHaveLeft: false };
    if (error instanceof BrokerError) return { kind: "failed", error, upstreamStatus: null, latencyMs: null, requestMayHaveLeft: true };
    const internal = Object.assign(new BrokerError("internal_error", "the call failed inside the broker after its request was sent"), { cause: error });
    return { kind: "failed", error: internal, upstreamStatus: null, latencyMs: null, requestMayHaveLeft: true };
  }

  return {
    /**
     * Opens the credential (a connection's tokens refreshed when due) and checks the request can
     * be built. A refusal here is an outcome whose request never left.
     */
    async prepare(entry: CatalogueTool, handle: CredentialHandle, args: Record<string, unknown>): Promise<Preparation> {
      const secrets = callSecrets(entry.provider.client);
      try {
        let credential: Credential;
        if (handle.kind === "oauth2") {
          const tokens = await refresher.getFreshCredentials(handle.connection);
          secrets.add(tokens.accessToken, ...(tokens.refreshToken ? [tokens.refreshToken] : []));
          credential = { kind: "oauth2", secret: tokens.accessToken };
        } else {
          credential = { kind: "api_key", secret: await handle.open() };
          secrets.add(credential.secret);
        }
        const request = entry.tool.buildRequest(args);
        // The credential's own address: its connection values fill the base URL's placeholders.
        const baseUrl = resolveApiBase(entry.provider, handle.connectionValues);
        return { ready: { entry, handle, args, request, baseUrl, credential, secrets } };
      } catch (error) {
        if (!(error instanceof BrokerError)) throw error;
        return { outcome: { kind: "failed", error, upstreamStatus: null, latencyMs: null, requestMayHaveLeft: false } };
      }
    },

    /** Sends a prepared call; on a 401 the connection is refreshed and the request sent once more. */
    async send(prepared: PreparedCall, options: SendOptions = {}): Promise<CallOutcome> {
      const { entry, handle, args, secrets } = prepared;
      let latencyMs = 0;
      let attempts = 0;
      const attempt = async (credential: Credential) => {
        const response = await sendOnce(prepared, credential, attempts++, options);
        latencyMs += response.latencyMs;
        return response;
      };
      try {
        let response = await attempt(prepared.credential);
        if (handle.kind === "oauth2" && authStatus(entry, response) === 401) {
          const renewed = await refresher.forceRefresh(handle.connection, prepared.credential.secret);
          secrets.add(renewed.accessToken, ...(renewed.refreshToken ? [renewed.refreshToken] : []));
          response = await attempt({ kind: "oauth2", secret: renewed.accessToken });
          // Refused again with renewed tokens: if the connection was revoked meanwhile (a revoke
          // racing this call), that is the answer, not the provider's 401.
          if (authStatus(entry, response) === 401) await refresher.assertActive(handle.connection);
        }
        return outcomeOf(entry, response, args, secrets, Math.round(latencyMs));
      } catch (error) {
        return failedInFlight(error);
      }
    },
  };
}

export type UpstreamCall = ReturnType<typeof createUpstreamCall>;
