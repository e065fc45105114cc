/**
 * The connection values a new OAuth connection gets, right after its code exchange and before
 * its identity is read: typed-in ones from the flow's start, `token_response` ones from the
 * token answer, then `api` ones read with the new token from the API base URL's origin (Atlassian's
 * accessible-resources). Each is checked by providers/connection-values.ts; one that fails stops
 * the connect, and nothing is stored.
 */
import { resolvePointer } from "../providers/declared-tool.js";
import { BrokerError } from "../errors.js";
import type { ResolvedProvider } from "../providers/catalogue.js";
import { apiOriginFor, checkConnectionValue, plainValues, type StoredConnectionValues } from "../providers/connection-values.js";
import type { UpstreamClient, UpstreamRequest } from "../providers/upstream-client.js";

const refused = (name: string, problem: string) =>
  new BrokerError("upstream_error", `the provider's answer gave no usable ${name}: it ${problem}`, { reason: "connection_value", value: name });

export async function valuesAtConnect(
  provider: ResolvedProvider,
  input: { typedIn: StoredConnectionValues; tokenResponse: Record<string, unknown>; accessToken: string },
  upstream: Pick<UpstreamClient, "send">,
): Promise<StoredConnectionValues> {
  const specs = Object.entries(provider.connectionValues ?? {});
  if (specs.length === 0) return {};
  const values: StoredConnectionValues = {};
  const take = (name: string, raw: unknown, display?: unknown) => {
    const check = checkConnectionValue(provider, name, raw);
    if ("problem" in check) throw refused(name, check.problem);
    values[name] = typeof display === "string" && display ? { value: check.value, display: display.slice(0, 200) } : { value: check.value };
  };
  for (const [name, spec] of specs) {
    if (spec.source === "connect_input") {
      const typed = input.typedIn[name];
      if (!typed) throw new BrokerError("invalid_request", `the connect carries no ${name} (${spec.label}); start it again with connection_values.${name}`);
      take(name, typed.value);
    } else if (spec.source === "token_response") {
      take(name, resolvePointer(input.tokenResponse, spec.pointer));
    }
  }
  const presented = provider.presentCredential({ kind: "oauth2", secret: input.accessToken });
  for (const [name, spec] of specs) {
    if (spec.source !== "api") continue;
    let origin: string;
    try {
      origin = apiOriginFor(provider, plainValues(values));
    } catch {
      throw refused(name, "needs the API's origin, which another value fills");
    }
    const request: UpstreamRequest = { method: "GET", path: spec.path, headers: { ...provider.apiHeaders, ...presented.headers }, query: { ...presented.query } };
    const response = await upstream.send(origin, request, { guarded: provider.tenantDefined === true });
    if (response.status !== 200) throw refused(name, `was not there: ${spec.path} answered ${response.status}`);
    take(name, resolvePointer(response.body, spec.pointer), spec.display_pointer ? resolvePointer(response.body, spec.display_pointer) : undefined);
  }
  return values;
}
