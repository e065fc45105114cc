/**
 * How request bodies are read: JSON only, an empty JSON body is "no body", `__proto__` and
 * `constructor.prototype` keys are refused, and nesting is bounded. Code that walks a body
 * (fingerprints, redaction, policy, text checks) recurses, so a 1 MiB body of `[[[[…` could
 * overflow the stack; it is refused here, once, before any of that runs.
 */
import type { FastifyInstance } from "fastify";
import { BrokerError } from "../errors.js";

export const MAX_JSON_DEPTH = 64;

/** Whether the value nests objects/arrays more than `limit` levels (the top level counts as 1); iterative. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (depth > limit) return true;
    for (const child of Object.values(node)) if (child !== null && typeof child === "object") pending.push([child, depth + 1]);
  }
  return false;
}

const tooDeep = () =>
  new BrokerError("invalid_request", `the JSON body nests deeper than ${MAX_JSON_DEPTH} levels`, {
    fields: [{ location: "body", field: "/", message: `nests deeper than ${MAX_JSON_DEPTH} levels` }],
  });

export function registerJsonBody(app: FastifyInstance) {
  // JSON only: anything else is 415, not a string handed to a handler that expects an object.
  app.removeContentTypeParser(["text/plain"]);
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    // An empty body sent as JSON (common for POSTs such as continue) is "no body", not a parse error.
    if (body === "") return done(null, undefined);
    parseJson(request, body as string, (error, value) => {
      if (error) return done(error);
      if (nestsDeeperThan(value, MAX_JSON_DEPTH)) return done(tooDeep());
      done(null, value);
    });
  });
}
