/**
 * One API call to a described sandbox: match the operation, check the credential, validate the
 * request, answer from the description. Every call is recorded with the operation it matched and
 * what was wrong with it, so a test can assert that the sandbox saw no invalid request.
 */
import type { ServerResponse } from "node:http";
import type { ProviderDeclaration } from "../../catalogue/declaration-schema.js";
import { header, sendEmpty, sendJson, sendText, type FakeRequest } from "../http.js";
import type { ProviderCore } from "../provider-core.js";
import { checkCredential, CREDENTIAL_MESSAGES } from "./api-credentials.js";
import type { SandboxUser } from "./described-oauth.js";
import type { DescribedOperation, IndexedDescription } from "./description.js";
import { matchesSchema, validateRequest } from "./request-validation.js";
import { sampleResponse } from "./response-sample.js";
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
};

/** What the sandbox noted about a call, on top of what every fake records. */
export type CallVerdict = { operationId: string | undefined; authorized: boolean; problems: string[] };

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
      credentialQuery: context.credentialQuery,
    }),
  );
  if (verdict.problems.length > 0) return answer(context, res, context.vendor.errors.invalidRequest, verdict.problems.join("; "), req);

  const sampled = sampleResponse(context.description, match.operation, (schema, value) => matchesSchema(context.description, `${match.operation.operationId}:response`, schema, value));
  const authorization = header(req, "authorization");
  if (sampled.body === undefined) return sendEmpty(res, sampled.status, context.core.echoHeaders(authorization));
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
