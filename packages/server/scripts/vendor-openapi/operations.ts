/**
 * Which operation of a vendor's description a tool calls: its method and its path (the
 * description's `pathPrefix` + the tool's path), segment by segment. A description's placeholder
 * takes a tool's placeholder, a literal (`me` for Gmail's `{userId}`) or a mix; a tool's
 * placeholder never stands for a literal of the description.
 */
import { deref, type Json, type OpenApiDocument } from "./schema-views.js";

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

const PLACEHOLDER = /\{\+?([^{}]+)\}/g;
/** Stands for a tool's placeholder while a tool segment is matched against a description's. */
const ARGUMENT_MARK = "\u0000";

export type MatchedOperation = {
  /** The description's path and lower-case method. */
  path: string;
  method: string;
  operation: Json;
  /** Path-item and operation parameters, references followed, the operation's winning. */
  parameters: Json[];
  /** Each description path placeholder → the tool's text for it (`{owner}`, `me`, `{a}-{b}`). */
  pathValues: Map<string, string>;
};

export type OperationLookup = { found: MatchedOperation } | { problem: string };

function segmentPattern(segment: string): { regex: RegExp; names: string[] } {
  const names: string[] = [];
  let source = "";
  let last = 0;
  for (const match of segment.matchAll(PLACEHOLDER)) {
    source += escapeRegex(segment.slice(last, match.index));
    source += "(.+?)";
    names.push(match[1]!);
    last = match.index! + match[0].length;
  }
  source += escapeRegex(segment.slice(last));
  return { regex: new RegExp(`^${source}$`, "s"), names };
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The tool's segment with each `{argument}` replaced by a mark that no literal of the description has. */
function markArguments(segment: string): { marked: string; argumentsInOrder: string[] } {
  const argumentsInOrder: string[] = [];
  const marked = segment.replace(/\{([^{}]+)\}/g, (_, name: string) => {
    argumentsInOrder.push(name);
    return ARGUMENT_MARK;
  });
  return { marked, argumentsInOrder };
}

/** Literal segments matched, or undefined when the path is not the tool's. */
function matchPath(descriptionPath: string, toolSegments: string[]): { literals: number; values: Map<string, string> } | undefined {
  const descriptionSegments = descriptionPath.split("/");
  if (descriptionSegments.length !== toolSegments.length) return undefined;
  const values = new Map<string, string>();
  let literals = 0;
  for (let i = 0; i < toolSegments.length; i++) {
    const { regex, names } = segmentPattern(descriptionSegments[i]!);
    const { marked, argumentsInOrder } = markArguments(toolSegments[i]!);
    const match = regex.exec(marked);
    if (!match) return undefined;
    if (!names.length) literals++;
    let argumentIndex = 0;
    names.forEach((name, index) => {
      // A placeholder's text back as the tool wrote it: its marks are its arguments again.
      const text = match[index + 1]!.replace(new RegExp(ARGUMENT_MARK, "g"), () => `{${argumentsInOrder[argumentIndex++]}}`);
      values.set(name, text);
    });
  }
  return { literals, values };
}

/** Path-item parameters overridden by the operation's (same name and location), references followed. */
export function operationParameters(doc: OpenApiDocument, pathItem: Json, operation: Json): Json[] {
  const byKey = new Map<string, Json>();
  for (const raw of [...((pathItem.parameters ?? []) as Json[]), ...((operation.parameters ?? []) as Json[])]) {
    const parameter = deref(doc, raw);
    byKey.set(`${parameter.in}:${parameter.name}`, parameter);
  }
  return [...byKey.values()];
}

export function toolDescriptionPath(toolPath: string, pathPrefix: string | undefined) {
  return `${(pathPrefix ?? "").replace(/\/$/, "")}${toolPath}`;
}

/** The operation a tool's method and path name, or why none does (with the nearest paths). */
export function findOperation(doc: OpenApiDocument, method: string, toolPath: string, pathPrefix?: string): OperationLookup {
  const fullPath = toolDescriptionPath(toolPath.split("?")[0]!, pathPrefix);
  const toolSegments = fullPath.split("/");
  const lowerMethod = method.toLowerCase();
  let best: { path: string; literals: number; values: Map<string, string> } | undefined;
  const otherMethods: string[] = [];
  for (const [path, pathItem] of Object.entries(doc.paths)) {
    const matched = matchPath(path, toolSegments);
    if (!matched) continue;
    if (!pathItem[lowerMethod]) {
      otherMethods.push(...HTTP_METHODS.filter((m) => pathItem[m]).map((m) => `${m.toUpperCase()} ${path}`));
      continue;
    }
    if (!best || matched.literals > best.literals) best = { path, ...matched };
  }
  if (best) {
    const pathItem = doc.paths[best.path]!;
    const operation = pathItem[lowerMethod] as Json;
    return { found: { path: best.path, method: lowerMethod, operation, parameters: operationParameters(doc, pathItem, operation), pathValues: best.values } };
  }
  const where = pathPrefix ? `${fullPath} (pathPrefix ${pathPrefix} + ${toolPath})` : fullPath;
  if (otherMethods.length) return { problem: `the description has no ${method.toUpperCase()} operation on ${where}; it has ${otherMethods.join(", ")}` };
  const near = nearestPaths(doc, toolSegments);
  return { problem: `no operation of the description matches ${method.toUpperCase()} ${where}${near.length ? `; nearest paths: ${near.join(", ")}` : ""}` };
}

/** Paths of the description that share the most leading literal segments with the tool's path. */
function nearestPaths(doc: OpenApiDocument, toolSegments: string[]): string[] {
  const scored = Object.keys(doc.paths).map((path) => {
    const segments = path.split("/");
    let shared = 0;
    while (shared < segments.length && shared < toolSegments.length && (segments[shared] === toolSegments[shared] || /^\{.*\}$/.test(segments[shared]!))) shared++;
    return { path, score: shared * 10 - Math.abs(segments.length - toolSegments.length) };
  });
  scored.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path));
  const best = scored[0]?.score ?? 0;
  return scored.slice(0, 3).filter((entry) => entry.score > 10 && entry.score >= best - 10).map((entry) => entry.path);
}
