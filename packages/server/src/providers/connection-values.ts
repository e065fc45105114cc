/**
 * Per-connection values (declaration `connection_values`): an Atlassian cloud id, a Salesforce
 * instance, a Zendesk subdomain. Each is kept with its connection or secret item and fills the
 * `{name}` placeholders of the provider's API base URL on every call.
 *
 * Where a value comes from decides how far it is trusted. A value a person types
 * (`connect_input`) is one DNS label and matches its pattern; a value read from the API (`api`)
 * or a token response (`token_response`, kind `segment`) is one path segment; only an origin read
 * from the token response (`kind: origin`) chooses a host, and it must be https and one of the
 * declaration's `allowed_hosts`, or, when `BROKER_PROVIDER_<ID>_API_BASE_URL` overrides the base
 * URL with an origin of its own, exactly that origin. Values are checked again on every use, so
 * a stored value the current declaration no longer accepts sends nothing.
 */
import { BrokerError } from "../errors.js";
import { compilePolicyRegex, type PolicyRegex } from "../shared/policy-regex.js";
import type { ConnectionValueDeclaration } from "./declaration-schema.js";
import type { Static } from "@sinclair/typebox";

export type ConnectionValueSpec = Static<typeof ConnectionValueDeclaration>;
export type ConnectionValueSpecs = Readonly<Record<string, ConnectionValueSpec>>;
/** Name → value, as they fill the base URL. */
export type ConnectionValues = Record<string, string>;
/** What is stored: each value, and what a person is shown for it (Atlassian's site name). */
export type StoredConnectionValues = Record<string, { value: string; display?: string }>;

/** What a provider needs to resolve and check its values. */
export type ValuedProvider = {
  id: string;
  apiBaseUrl: string;
  connectionValues?: ConnectionValueSpecs | undefined;
  /** BROKER_PROVIDER_<ID>_API_BASE_URL replaced the declared base URL. */
  apiBaseOverridden?: boolean | undefined;
};

const PLACEHOLDER = /\{([a-z][a-z0-9_]{0,39})\}/g;
/** One DNS label: what a `connect_input` value always is, whatever its pattern says. */
const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** One path segment of unreserved characters, never "." or "..". */
const PATH_SEGMENT = /^[A-Za-z0-9._~-]{1,200}$/;
const MAX_ORIGIN_LENGTH = 300;

export const basePlaceholders = (template: string): string[] => [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!);
export const hasPlaceholders = (template: string) => template.includes("{");

/**
 * A template's origin part and the rest: `{instance_url}` and `/services/data/v62.0`, or
 * `https://{subdomain}.zendesk.com` and `/api/v2`.
 */
export function splitTemplate(template: string): { origin: string; path: string } {
  const leading = /^\{[a-z][a-z0-9_]{0,39}\}/.exec(template);
  if (leading) return { origin: leading[0], path: template.slice(leading[0].length) };
  const match = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)(.*)$/i.exec(template);
  return match ? { origin: match[1]!, path: match[2]! } : { origin: template, path: "" };
}

/** Compiled once per pattern string: declarations are few and their patterns fixed. */
const compiled = new Map<string, PolicyRegex | { error: string }>();
function regexOf(pattern: string): PolicyRegex | { error: string } {
  let regex = compiled.get(pattern);
  if (!regex) {
    regex = compilePolicyRegex(pattern);
    if (compiled.size > 1_000) compiled.clear();
    compiled.set(pattern, regex);
  }
  return regex;
}

/** Why a pattern cannot be used, or undefined: for the declaration checks. */
export function patternProblem(pattern: string): string | undefined {
  const regex = regexOf(pattern);
  return "error" in regex ? regex.error : undefined;
}

const matches = (pattern: string, value: string) => {
  const regex = regexOf(pattern);
  return !("error" in regex) && regex.test(value);
};

export type ValueCheck = { value: string } | { problem: string };

/**
 * A value as it would be stored, or why it may not be. `raw` is what the source gave (a string
 * typed in, a JSON value from a response).
 */
export function checkConnectionValue(provider: ValuedProvider, name: string, raw: unknown): ValueCheck {
  const spec = provider.connectionValues?.[name];
  if (!spec) return { problem: "is not a value this provider declares" };
  if (spec.source === "connect_input") {
    if (typeof raw !== "string") return { problem: "must be a string" };
    const value = raw.toLowerCase();
    if (!DNS_LABEL.test(value)) return { problem: "must be one DNS label: letters, digits and '-', at most 63, not starting or ending with '-'" };
    if (!matches(spec.pattern, value)) return { problem: `must match ${spec.pattern}` };
    return { value };
  }
  if (spec.source === "api") {
    if (typeof raw !== "string" && typeof raw !== "number") return { problem: "must be a string or a number" };
    const value = String(raw);
    if (!isSegment(value)) return { problem: "must be one path segment of letters, digits and '-._~'" };
    if (!matches(spec.pattern, value)) return { problem: `must match ${spec.pattern}` };
    return { value };
  }
  if (typeof raw !== "string") return { problem: "must be a string" };
  if (spec.kind !== "origin") return isSegment(raw) ? { value: raw } : { problem: "must be one path segment of letters, digits and '-._~'" };
  return checkOrigin(provider, spec, raw);
}

const isSegment = (value: string) => PATH_SEGMENT.test(value) && value !== "." && value !== "..";

/** The origin an API base URL override names, or undefined when it begins with a placeholder. */
export function overrideOrigin(provider: ValuedProvider): string | undefined {
  if (!provider.apiBaseOverridden) return undefined;
  const { origin } = splitTemplate(provider.apiBaseUrl);
  if (hasPlaceholders(origin)) return undefined;
  try {
    return new URL(origin).origin;
  } catch {
    return undefined;
  }
}

function checkOrigin(provider: ValuedProvider, spec: Extract<ConnectionValueSpec, { source: "token_response" }>, raw: string): ValueCheck {
  if (raw.length > MAX_ORIGIN_LENGTH) return { problem: `must be at most ${MAX_ORIGIN_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { problem: "must be an absolute URL" };
  }
  if (url.username || url.password || url.search || url.hash || (url.pathname !== "/" && url.pathname !== "")) return { problem: "must be an origin (scheme, host and port only)" };
  // A sandbox: the operator's override is the only place the credential may go.
  const overridden = overrideOrigin(provider);
  if (overridden !== undefined) return url.origin === overridden ? { value: url.origin } : { problem: `must be ${overridden}, the origin of BROKER_PROVIDER_${provider.id.toUpperCase()}_API_BASE_URL` };
  if (url.protocol !== "https:") return { problem: "must be an https origin" };
  if (!hostAllowed(url.hostname, spec.allowed_hosts ?? [])) return { problem: `must be on one of ${(spec.allowed_hosts ?? []).join(", ") || "(no hosts allowed)"}` };
  return { value: url.origin };
}

/** `*.example.com` matches one or more labels before `.example.com`; anything else is exact. */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const name = host.toLowerCase();
  return allowed.some((pattern) => {
    if (!pattern.startsWith("*.")) return name === pattern;
    const suffix = pattern.slice(1);
    return name.length > suffix.length && name.endsWith(suffix) && !name.startsWith(".") && !name.slice(0, -suffix.length).split(".").some((label) => label === "");
  });
}

const unusable = (message: string, reason: string, details: Record<string, unknown> = {}) =>
  new BrokerError("connection_unusable", message, { reason, reconnect_required: true, ...details });

/** Plain values out of what is stored. */
export const plainValues = (stored: StoredConnectionValues | null | undefined): ConnectionValues =>
  Object.fromEntries(Object.entries(stored ?? {}).map(([name, entry]) => [name, entry.value]));

/**
 * The template with its placeholders filled. Every value is checked again by today's rules (a
 * value that no longer passes sends nothing); path values are percent-encoded.
 */
function fill(provider: ValuedProvider, template: string, values: ConnectionValues): string {
  return template.replace(PLACEHOLDER, (_whole, name: string) => {
    const value = values[name];
    if (value === undefined) {
      throw unusable(`the credential holds no ${name} for ${provider.id}'s API address; it must be connected again`, "connection_value_missing", { value: name });
    }
    const check = checkConnectionValue(provider, name, value);
    if ("problem" in check || check.value !== value) {
      throw unusable(`the credential's ${name} is no longer accepted for ${provider.id}; nothing was sent, and it must be connected again`, "connection_value_refused", { value: name });
    }
    return provider.connectionValues?.[name]?.source === "token_response" && (provider.connectionValues[name] as { kind?: string }).kind === "origin" ? value : encodeURIComponent(value);
  });
}

/** The API base URL one connection's calls go to. */
export function resolveApiBase(provider: ValuedProvider, values: ConnectionValues): string {
  return hasPlaceholders(provider.apiBaseUrl) ? fill(provider, provider.apiBaseUrl, values) : provider.apiBaseUrl;
}

/** The origin of the base URL with the values known so far filled in: where `api` values are read. */
export function apiOriginFor(provider: ValuedProvider, values: ConnectionValues): string {
  const { origin } = splitTemplate(provider.apiBaseUrl);
  return new URL(fill(provider, origin, values)).origin;
}

/**
 * What a credential's API side is bound to: the origin of its base URL, and, when a value fills a
 * path segment, the path up to and including that segment (`https://api.atlassian.com/ex/jira/<cloud id>`),
 * so neither another host nor another value ever receives it. A base URL without placeholders
 * binds its origin alone, as before connection values existed.
 */
export function apiBindingOf(provider: ValuedProvider, values: ConnectionValues): string {
  const template = provider.apiBaseUrl;
  if (!hasPlaceholders(template)) return new URL(template).origin;
  const { origin, path } = splitTemplate(template);
  const resolvedOrigin = new URL(fill(provider, origin, values)).origin;
  const last = path.lastIndexOf("}");
  if (last === -1) return resolvedOrigin;
  const end = path.indexOf("/", last);
  const prefix = (end === -1 ? path : path.slice(0, end)).replace(/[?#].*$/, "");
  return `${resolvedOrigin}${fill(provider, prefix, values)}`;
}

/**
 * Where a connect under way is bound before its values exist: the base URL template itself (a
 * re-pointed provider changes it). Without placeholders, the origin, as before.
 */
export const templateBindingOf = (provider: Pick<ValuedProvider, "apiBaseUrl">) => {
  const template = provider.apiBaseUrl;
  if (!hasPlaceholders(template)) return new URL(template).origin;
  const { origin } = splitTemplate(template);
  return hasPlaceholders(origin) ? origin : new URL(origin).origin;
};

/** The names of the values a person gives when connecting. */
export const connectInputsOf = (provider: ValuedProvider) =>
  Object.entries(provider.connectionValues ?? {}).filter((entry): entry is [string, Extract<ConnectionValueSpec, { source: "connect_input" }>] => entry[1].source === "connect_input");

export type FieldProblem = { field: string; message: string };

/**
 * The `connect_input` values a person gave (API or connect page), checked: every declared one
 * present, no other name. Throws invalid_request (422) naming each faulty field under `at`.
 */
export function checkConnectInputs(provider: ValuedProvider, given: Record<string, unknown> | undefined, at = "/connection_values"): StoredConnectionValues {
  const inputs = connectInputsOf(provider);
  const problems: FieldProblem[] = [];
  const stored: StoredConnectionValues = {};
  for (const name of Object.keys(given ?? {})) {
    if (!inputs.some(([declared]) => declared === name)) problems.push({ field: `${at}/${name}`, message: inputs.length ? `is not asked for by ${provider.id} (it asks for ${inputs.map(([n]) => n).join(", ")})` : `is not asked for: ${provider.id} takes no connection values` });
  }
  for (const [name, spec] of inputs) {
    const raw = given?.[name];
    if (raw === undefined || raw === "") {
      problems.push({ field: `${at}/${name}`, message: `is required: ${spec.label}` });
      continue;
    }
    const check = checkConnectionValue(provider, name, raw);
    if ("problem" in check) problems.push({ field: `${at}/${name}`, message: check.problem });
    else stored[name] = { value: check.value };
  }
  if (problems.length) {
    // 422: the body is well formed; the values are not ones this provider accepts.
    throw new BrokerError(
      "invalid_request",
      `connection values: ${problems.map((p) => `${p.field} ${p.message}`).join("; ")}`,
      { fields: problems.map((p) => ({ location: "body", ...p })) },
      { status: 422 },
    );
  }
  return stored;
}

/**
 * Problems of a declaration's values that its schema cannot say, as field → message: every
 * placeholder is declared, every pattern compiles on RE2, an origin value starts the base URL
 * and names its allowed hosts, an API-key provider asks only for typed-in values.
 */
export function connectionValueProblems(declaration: {
  api_base_url: string;
  auth: { type: string };
  connection_values?: Record<string, ConnectionValueSpec> | undefined;
}): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const specs = declaration.connection_values ?? {};
  const placeholders = basePlaceholders(declaration.api_base_url);
  const braces = (declaration.api_base_url.match(/[{}]/g) ?? []).length;
  if (braces !== placeholders.length * 2) problems.push({ field: "/api_base_url", message: "has a '{' or '}' that is not part of a {name} placeholder" });
  for (const name of placeholders) {
    if (!specs[name]) problems.push({ field: "/api_base_url", message: `names {${name}}, which connection_values does not declare` });
  }
  const { origin } = splitTemplate(declaration.api_base_url);
  for (const [name, spec] of Object.entries(specs)) {
    const at = `/connection_values/${name}`;
    if (!placeholders.includes(name)) problems.push({ field: at, message: `is not used: api_base_url has no {${name}}` });
    if ("pattern" in spec) {
      const problem = patternProblem(spec.pattern);
      if (problem) problems.push({ field: `${at}/pattern`, message: problem });
    }
    if (spec.source !== "connect_input" && declaration.auth.type !== "oauth2") problems.push({ field: `${at}/source`, message: "must be connect_input for an api_key provider (there is no token response, and no call before the key is stored)" });
    if (spec.source === "token_response" && spec.kind === "origin") {
      if (origin !== `{${name}}`) problems.push({ field: "/api_base_url", message: `must begin with {${name}}: an origin value is the whole scheme, host and port` });
      if (!spec.allowed_hosts?.length) problems.push({ field: `${at}/allowed_hosts`, message: "is required for an origin value: it names the hosts a token response may point to" });
    } else if (origin === `{${name}}`) {
      problems.push({ field: "/api_base_url", message: `may begin with {${name}} only when it is a token_response value of kind origin` });
    }
  }
  return problems;
}
