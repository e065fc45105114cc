/**
 * Performs one tool call at the provider: fresh credentials, the request the tool declares, one
 * refresh-and-retry on 401, the response checked against the tool's declared shape, and every
 * failure turned into a `failed` outcome that says whether the request may have left the broker.
 */
import { BrokerError } from "../errors.js";
import { RequestNotSentError, type UpstreamClient, type UpstreamResponse } from "../providers/upstream-client.js";
import type { CredentialHandle } from "./credential-resolution.js";
import type { CallOutcome } from "../invocations/invocation-states.js";
import type { PresentedCredential } from "../providers/provider-types.js";
import { resolveApiBase } from "../providers/connection-values.js";
import { basicCredentialsOf, MAX_RESULT_VALUES, scrub, scrubTargets } from "./scrub.js";
import type { CatalogueTool } from "../catalogue/tool-catalogue.js";

const MAX_UPSTREAM_MESSAGE = 500;

function upstreamMessage(body: unknown): string | undefined {
  if (typeof body === "string") return body.slice(0, MAX_UPSTREAM_MESSAGE) || undefined;
  if (!body || typeof body !== "object") return undefined;
  const b = body as Record<string, any>;
  const message = b.message ?? b.error_description ?? b.errors?.[0]?.message ?? (typeof b.error === "string" ? b.error : undefined);
  return typeof message === "string" ? message.slice(0, MAX_UPSTREAM_MESSAGE) : undefined;
}

type UpstreamCallDeps = { upstream: UpstreamClient };

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

/** `beforeSend` runs once, right before the tool's own request is first handed to the network. */
export type CallHooks = { beforeSend?: (() => Promise<void>) | undefined };

export function createUpstreamCall({ upstream }: UpstreamCallDeps) {
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

  return {
    async call(entry: CatalogueTool, handle: CredentialHandle, args: Record<string, unknown>, hooks: CallHooks = {}): Promise<CallOutcome> {
      const provider = entry.provider;
      const secrets = callSecrets(provider.client);
      let handedToNetwork = false;
      let baseUrl: string | undefined;
      let latencyMs = 0;
      const send = async (credential: { kind: "oauth2" | "api_key"; secret: string }) => {
        const request = entry.tool.buildRequest(args);
        // The credential's own address: its connection values fill the base URL's placeholders.
        baseUrl ??= resolveApiBase(provider, handle.connectionValues);
        if (!handedToNetwork) await hooks.beforeSend?.();
        handedToNetwork = true;
        const presented = provider.presentCredential(credential);
        secrets.add(credential.secret, ...presentedForms(presented));
        const response = await upstream.send(
          baseUrl,
          { ...request, headers: { ...provider.apiHeaders, ...request.headers, ...presented.headers }, query: { ...request.query, ...presented.query } },
          { guarded: provider.tenantDefined === true },
        );
        latencyMs += response.latencyMs;
        return response;
      };

      try {
        let response: UpstreamResponse;
        if (handle.kind === "oauth2") {
          const tokens = await handle.tokens();
          secrets.add(tokens.accessToken, ...(tokens.refreshToken ? [tokens.refreshToken] : []));
          response = await send({ kind: "oauth2", secret: tokens.accessToken });
          if (authStatus(entry, response) === 401) {
            const renewed = await handle.renewAfter401(tokens.accessToken);
            secrets.add(renewed.accessToken, ...(renewed.refreshToken ? [renewed.refreshToken] : []));
            response = await send({ kind: "oauth2", secret: renewed.accessToken });
            // Refused again with renewed tokens: if the connection was revoked meanwhile (a revoke
            // racing this call), that is the answer, not the provider's 401.
            if (authStatus(entry, response) === 401) await handle.assertStillActive();
          }
        } else {
          const key = await handle.open();
          secrets.add(key);
          response = await send({ kind: "api_key", secret: key });
        }
        return outcomeOf(entry, response, args, secrets, Math.round(latencyMs));
      } catch (error) {
        // Before the request was handed to the network nothing can have happened upstream.
        if (!handedToNetwork && error instanceof BrokerError) return { kind: "failed", error, upstreamStatus: null, latencyMs: null, requestMayHaveLeft: false };
        if (error instanceof RequestNotSentError) return { kind: "failed", error, upstreamStatus: null, latencyMs: null, requestMayHaveLeft: false };
        if (error instanceof BrokerError) return { kind: "failed", error, upstreamStatus: null, latencyMs: null, requestMayHaveLeft: true };
        if (!handedToNetwork) throw error;
        const internal = Object.assign(new BrokerError("internal_error", "the call failed inside the broker after its request was sent"), { cause: error });
        return { kind: "failed", error: internal, upstreamStatus: null, latencyMs: null, requestMayHaveLeft: true };
      }
    },
  };
}

export type UpstreamCall = ReturnType<typeof createUpstreamCall>;
