/**
 * The one way the console calls the broker: same origin, the operator's bearer token, the chosen
 * tenant in X-Broker-Tenant-Id, and every failure turned into an ApiError with the envelope's message.
 */
import { sessionStore, tenantStore } from "../auth/session-store";
import { ApiError } from "./errors";
import type { ErrorEnvelope, Method, Operation, PathParams, PathsWith, QueryParams, RequestBody, SuccessBody } from "./types";

type Options<O> = ([PathParams<O>] extends [never] ? { path?: undefined } : { path: PathParams<O> }) & {
  query?: QueryParams<O>;
  body?: RequestBody<O>;
  /** Send the operator token without a tenant (GET /v1/me) or no credential at all. */
  auth?: "tenant" | "operator" | "none";
  signal?: AbortSignal;
};

type UnauthorizedHandler = (error: ApiError, auth: "tenant" | "operator") => void;
let onUnauthorized: UnauthorizedHandler | undefined;
/** Called when the broker answers 401 to a call made with the session's token. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler | undefined) {
  onUnauthorized = handler;
}

function buildUrl(template: string, path: Record<string, unknown> | undefined, query: Record<string, unknown> | undefined): string {
  const filled = template.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(String(path?.[name] ?? "")));
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== "") search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `${filled}?${text}` : filled;
}

function headersFor(auth: "tenant" | "operator" | "none", hasBody: boolean): Headers {
  // Tells the broker a person pressed a button in the console (recorded as how an approval was decided).
  const headers = new Headers({ accept: "application/json", "x-broker-client": "console" });
  if (hasBody) headers.set("content-type", "application/json");
  if (auth === "none") return headers;
  const session = sessionStore.get();
  if (!session) throw new ApiError(401, "unauthorized", "You are signed out: sign in again.");
  headers.set("authorization", `Bearer ${session.access_token}`);
  if (auth === "tenant") {
    const tenant = tenantStore.get();
    if (!tenant) throw new ApiError(400, "no_tenant", "Choose a tenant first.");
    headers.set("x-broker-tenant-id", tenant);
  }
  return headers;
}

async function failure(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => "");
  try {
    const envelope = JSON.parse(text) as ErrorEnvelope;
    if (envelope?.error?.message) return new ApiError(response.status, envelope.error.code, envelope.error.message, envelope.error.details);
  } catch {
    // Not the envelope: a proxy or an HTML page answered.
  }
  return new ApiError(response.status, "http_error", `The broker answered ${response.status} ${response.statusText}`.trim() + ".");
}

export async function api<M extends Method, P extends PathsWith<M>>(method: M, path: P, options?: Options<Operation<P, M>>): Promise<SuccessBody<Operation<P, M>>> {
  const auth = options?.auth ?? "tenant";
  const hasBody = options?.body !== undefined;
  const url = buildUrl(path, options?.path as Record<string, unknown> | undefined, options?.query as Record<string, unknown> | undefined);
  let response: Response;
  try {
    response = await fetch(url, {
      method: method.toUpperCase(),
      headers: headersFor(auth, hasBody),
      body: hasBody ? JSON.stringify(options?.body) : null,
      signal: options?.signal ?? null,
      credentials: "same-origin",
    });
  } catch (error) {
    if (error instanceof ApiError || (error instanceof DOMException && error.name === "AbortError")) throw error;
    throw new ApiError(0, "network_error", "The broker cannot be reached. Check that it is running, then try again.");
  }
  if (!response.ok) {
    const error = await failure(response);
    if (response.status === 401 && auth !== "none") onUnauthorized?.(error, auth);
    throw error;
  }
  // 204 No Content (a DELETE of the catalogue or of an OAuth app) has no body to parse.
  if (response.status === 204) return undefined as SuccessBody<Operation<P, M>>;
  return (await response.json()) as SuccessBody<Operation<P, M>>;
}
