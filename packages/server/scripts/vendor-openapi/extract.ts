/**
 * A vendor's description cut down to the operations the built-in tools use, with every component
 * they reach through `$ref` (transitively) and nothing else, and a header naming its source.
 */
import { lookupRef, type Json, type OpenApiDocument } from "./schema-views.js";

/** Where a vendored description came from; kept in its info["x-toolbroker-source"]. */
export type VendorSource = {
  package: string;
  version: string;
  file: string;
  /** The terms the description is under, as the provider's vendorDescription names them. */
  licence: string;
  /** The npm package's own licence (package.json). */
  package_licence: string;
  /** What the description itself says of its licence and terms (null where it says nothing). */
  description_licence: Json | null;
  terms_of_service: string | null;
  /** Where the description's publisher took it from (APIs-guru's x-origin). */
  origin: string[];
  extracted_at: string;
};

export type UsedOperation = { path: string; method: string };

const COMPONENT_REF = /^#\/components\/([^/]+)\/([^/]+)$/;

/** Every `$ref` inside a value (not followed). */
export function refsIn(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) refsIn(item, out);
  else if (value && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) {
      if (key === "$ref" && typeof child === "string") out.add(child);
      else refsIn(child, out);
    }
  }
  return out;
}

/** The components the values reach, transitively: kind → name → component. */
export function reachableComponents(doc: OpenApiDocument, roots: unknown[]): Map<string, Map<string, Json>> {
  const components = new Map<string, Map<string, Json>>();
  const pending = [...refsIn(roots)];
  const seen = new Set<string>();
  while (pending.length) {
    const ref = pending.pop()!;
    if (seen.has(ref)) continue;
    seen.add(ref);
    const named = componentOf(ref);
    if (!named) throw new Error(`${ref}: only whole components (#/components/<kind>/<name>) can be vendored`);
    const component = lookupRef(doc, ref);
    if (!components.has(named.kind)) components.set(named.kind, new Map());
    components.get(named.kind)!.set(named.name, component);
    for (const next of refsIn(component)) if (!seen.has(next)) pending.push(next);
  }
  return components;
}

const sortedObject = <T>(entries: Iterable<[string, T]>) => Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** The description with only the used operations (each path's other methods dropped) and what they reach. */
export function extractOperations(doc: OpenApiDocument, used: UsedOperation[], source: VendorSource): OpenApiDocument {
  const paths: Record<string, Json> = {};
  for (const { path, method } of [...used].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))) {
    const pathItem = doc.paths[path];
    if (!pathItem?.[method]) throw new Error(`the description has no ${method.toUpperCase()} ${path}`);
    const kept = (paths[path] ??= {});
    for (const shared of ["parameters", "servers"]) if (pathItem[shared] !== undefined) kept[shared] = pathItem[shared];
    kept[method] = pathItem[method];
  }
  // Security schemes are named by operations' `security`, not referenced: all of them come along (they are few).
  const securitySchemes = doc.components?.securitySchemes;
  const components = reachableComponents(doc, Object.values(paths));
  const info: Json = { title: doc.info?.title, version: doc.info?.version };
  for (const key of ["description", "license", "termsOfService", "contact", "x-origin", "x-providerName"]) if (doc.info?.[key] !== undefined) info[key] = doc.info[key];
  info["x-toolbroker-source"] = source;
  const out: OpenApiDocument = { openapi: doc.openapi, info, paths };
  if (doc.servers) out.servers = doc.servers;
  if (doc.security) out.security = doc.security;
  const componentsOut: Record<string, Json> = {};
  for (const [kind, byName] of [...components].sort(([a], [b]) => a.localeCompare(b))) componentsOut[kind] = sortedObject(byName);
  if (securitySchemes) componentsOut.securitySchemes = securitySchemes;
  if (Object.keys(componentsOut).length) out.components = componentsOut;
  // Key order as a reader expects it: openapi, info, servers, security, paths, components.
  return Object.fromEntries(["openapi", "info", "servers", "security", "paths", "components"].filter((key) => out[key] !== undefined).map((key) => [key, out[key]])) as OpenApiDocument;
}

/** A component reference's kind and name, unescaped (`#/components/schemas/a~1b` → schemas, a/b). */
function componentOf(ref: string): { kind: string; name: string } | undefined {
  const parts = COMPONENT_REF.exec(ref);
  if (!parts) return undefined;
  return { kind: parts[1]!, name: decodeURIComponent(parts[2]!).replace(/~1/g, "/").replace(/~0/g, "~") };
}

/** Refs in the vendored paths reach exactly the vendored components: none missing, none extra. */
export function componentDrift(doc: OpenApiDocument): { missing: string[]; unused: string[] } {
  const seen = new Set<string>();
  const reachable = new Set<string>();
  const missing: string[] = [];
  const pending = [...refsIn(doc.paths)];
  while (pending.length) {
    const ref = pending.pop()!;
    if (seen.has(ref)) continue;
    seen.add(ref);
    const component = componentOf(ref);
    const value = component ? doc.components?.[component.kind]?.[component.name] : undefined;
    if (!component || value === undefined) {
      missing.push(ref);
      continue;
    }
    reachable.add(`${component.kind}/${component.name}`);
    pending.push(...refsIn(value));
  }
  const unused: string[] = [];
  for (const [kind, byName] of Object.entries(doc.components ?? {})) {
    if (kind === "securitySchemes") continue;
    for (const name of Object.keys(byName)) if (!reachable.has(`${kind}/${name}`)) unused.push(`#/components/${kind}/${name}`);
  }
  return { missing: missing.sort(), unused: unused.sort() };
}
