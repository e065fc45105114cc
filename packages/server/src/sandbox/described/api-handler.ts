/**
 * One API call to a described sandbox: match the operation, check the credential, validate the
 * request, answer from the description. Every call is recorded with the operation it matched and
 * what was wrong with it, so a test can assert that the sandbox saw no invalid request.
 */
import type { ServerResponse } from "node:http";
import type { ProviderDeclaration } from "../../providers/declaration-schema.js";
import { header, sendEmpty, sendJson, sendText, type FakeRequest } from "../http.js";
import type { ProviderCore } from "../provider-core.js";
import { checkCredential, CREDENTIAL_MESSAGES } from "./api-credentials.js";
import type { SandboxUser } from "./described-oauth.js";
import type { DescribedOperation, IndexedDescription, JsonObject } from "./description.js";
import { matchesSchema, validateRequest } from "./request-validation.js";
import { sampleResponse, type ToolExpectation } from "./response-sample.js";
import { fillTemplates, userValues } from "./templates.js";
import type { DescribedVendor, SandboxAnswer } from "./vendor-config.js";

export type ApiContext = {
  core: ProviderCore<SandboxUser>;
  vendor: DescribedVendor;
  description: IndexedDescription;
  auth: ProviderDeclaration["auth"];
  apiKeys: ReadonlySet<string>;
  origin: () => string;
  /** The declaration's API base path as a pattern (`/ex/jira/{cloud_id}` → /ex/jira/[^/]+), stripped before matching. */
  basePath: RegExp;
  /** Put before the rest of the path to get the description's path (vendorDescription.pathPrefix). */
  pathPrefix: string;
  /** Query parameters the credential travels in. */
  credentialQuery: ReadonlySet<string>;
  /** The tool that sends this request (method and path template), for an operation whose description names no response body. */
  expectationFor(operation: DescribedOperation): ToolExpectation | undefined;
  /** The declaration's identity request: answered with the sandbox user at its pointers. */
  identity: ProviderDeclaration["identity"];
};

/** What the sandbox noted about a call, on top of what every fake records. */
export type CallVerdict = { operationId: string | undefined; authorized: boolean; problems: string[]; emptyAnswer?: boolean };

export async function handleDescribedApi(context: ApiContext, req: FakeRequest, res: ServerResponse): Promise<void> {
  const intercepted = context.core.interceptApi(req, res);
  // The record interceptApi just made carries the verdict, filled in as the checks run.
  const verdict: CallVerdict = Object.assign(context.core.stats.apiCalls.at(-1)!, { operationId: undefined, authorized: false, problems: [] as string[] });
  if (await intercepted) return;

  const credential = checkCredential(req, context.auth, context.core.state, context.apiKeys);
  if (!credential.ok) return answer(context, res, context.vendor.errors.unauthorized, CREDENTIAL_MESSAGES[credential.reason], req);
  verdict.authorized = true;

  const route = context.vendor.routes?.[`${req.method} ${req.path}`];
  if (route) {
    verdict.operationId = `${req.method} ${req.path}`;
    return answer(context, res, route, "", req);
  }
  const match = matchOperation(context, req.method, req.path);
  if (isIdentityRequest(context, req)) {
    verdict.operationId = match?.operation.operationId ?? "identity";
    const sampled = match ? sampleResponse(context.description, match.operation, () => false).body : {};
    return answer(context, res, { status: 200, body: withIdentity(context, sampled) }, "", req);
  }
  if (!match) {
    verdict.problems.push(`no operation of the description matches ${req.method} ${req.path}`);
    return answer(context, res, context.vendor.errors.notFound, `${req.method} ${req.path} is not an operation of this API`, req);
  }
  verdict.operationId = match.operation.operationId;
  verdict.problems.push(
    ...validateRequest(context.description, match.operation, {
      method: req.method,
      pathValues: match.values,
      query: req.queryEntries,
      headers: req.headers,
      contentType: String(header(req, "content-type") ?? ""),
      text: req.text,
      credentialQuery: credentialQueryOf(context, req),
    }),
  );
  if (verdict.problems.length > 0) return answer(context, res, context.vendor.errors.invalidRequest, verdict.problems.join("; "), req);

  const fits = (schema: JsonObject, value: unknown) => matchesSchema(context.description, `${match.operation.operationId}:response`, schema, value);
  const sampled = sampleResponse(context.description, match.operation, fits, context.expectationFor(match.operation));
  const authorization = header(req, "authorization");
  if (sampled.body === undefined) {
    verdict.emptyAnswer = true;
    return sendEmpty(res, sampled.status, context.core.echoHeaders(authorization));
  }
  sendJson(res, sampled.status, context.core.echoInto(sampled.body, authorization), context.core.echoHeaders(authorization));
}

function matchOperation(context: ApiContext, method: string, path: string): { operation: DescribedOperation; values: Record<string, string> } | undefined {
  const base = context.basePath.exec(path);
  const rest = base ? path.slice(base[0].length) || "/" : path;
  const candidates = [`${context.pathPrefix}${rest}`, path];
  for (const candidate of candidates) {
    for (const operation of context.description.operations) {
      if (operation.method !== method) continue;
      const found = operation.pattern.exec(candidate);
      if (!found) continue;
      const values = Object.fromEntries(operation.placeholders.map((name, index) => [name, safeDecode(found[index + 1]!)]));
      return { operation, values };
    }
  }
  return undefined;
}

/** The declared credential parameters, and any query parameter carrying (part of) a key the sandbox issued (Trello's key and token). */
function credentialQueryOf(context: ApiContext, req: FakeRequest): ReadonlySet<string> {
  const parts = new Set([...context.apiKeys].flatMap((key) => [key, ...key.split(":")]));
  const carrying = req.queryEntries.filter(([, value]) => parts.has(value) || context.core.state.kindOf(value) !== undefined).map(([name]) => name);
  return new Set([...context.credentialQuery, ...carrying]);
}

/** GET of the declaration's identity path (how a new connection learns its account), whether or not the description has it. */
function isIdentityRequest(context: ApiContext, req: FakeRequest): boolean {
  if (!context.identity || req.method !== "GET") return false;
  const base = context.basePath.exec(req.path);
  // The identity path may carry a query (Drive's about needs ?fields=user); the request's path has none.
  return (base ? req.path.slice(base[0].length) : req.path) === context.identity.path.split("?")[0];
}

/** The sampled identity answer with the sandbox user's id and name at the declaration's pointers. */
function withIdentity(context: ApiContext, sampled: unknown): unknown {
  const user = context.core.currentUser();
  let body: unknown = sampled && typeof sampled === "object" ? structuredClone(sampled) : {};
  body = setPointer(body, context.identity!.account_id, user.id ?? "sandbox-user");
  if (context.identity!.display_name) body = setPointer(body, context.identity!.display_name, user.email ?? user.name ?? "sandbox user");
  return body;
}

function setPointer(root: unknown, pointer: string, value: unknown): unknown {
  const tokens = pointer.split("/").slice(1).map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"));
  if (tokens.length === 0) return value;
  let container: any = root;
  tokens.forEach((token, index) => {
    const key = Array.isArray(container) ? Number(token) : token;
    if (index === tokens.length - 1) container[key] = value;
    else {
      if (!container[key] || typeof container[key] !== "object") container[key] = /^\d+$/.test(tokens[index + 1]!) ? [] : {};
      container = container[key];
    }
  });
  return root;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function answer(context: ApiContext, res: ServerResponse, given: SandboxAnswer, message: string, req: FakeRequest): void {
  const values = { origin: context.origin(), message, ...userValues(context.core.currentUser()) };
  const body = fillTemplates(given.body, values);
  const headers = { ...given.headers, ...context.core.echoHeaders(header(req, "authorization")) };
  if (body === undefined) return sendEmpty(res, given.status, headers);
  if (typeof body === "string") return sendText(res, given.status, body, headers);
  sendJson(res, given.status, given.status < 300 ? context.core.echoInto(body, header(req, "authorization")) : body, headers);
}
