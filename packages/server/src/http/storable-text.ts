/**
 * Text that both databases store, and give back, unchanged. PostgreSQL refuses U+0000 in `text`
 * and `jsonb` (a 500 where SQLite would store it), and a lone UTF-16 surrogate, which has no
 * UTF-8 form, is refused by `jsonb` and silently replaced in `text` — by one U+FFFD on
 * PostgreSQL and three on SQLite. So such strings are refused at the door, before validation, on
 * every route and in every part of the request the broker reads (path parameters, query string,
 * body — values and property names, at any depth), with the same envelope as a schema error.
 * Headers need no check: Node's HTTP parser refuses a NUL in them, and they cannot carry
 * surrogates. Cursors are decoded later and checked by `decodeCursor`.
 */
import type { FastifyInstance } from "fastify";

const UNSTORABLE = /[\u0000\p{Cs}]/u;

/** Why a string cannot be stored, or undefined when it can. */
export function unstorableCharacter(text: string): string | undefined {
  const found = UNSTORABLE.exec(text)?.[0];
  if (found === undefined) return undefined;
  return found === "\u0000" ? "the NUL character (U+0000)" : "an unpaired UTF-16 surrogate";
}

export type TextIssue = { instancePath: string; message: string };

const MAX_ISSUES = 20;
const pointerToken = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

/**
 * Every string in a parsed JSON value (or query / params object) that cannot be stored, as JSON
 * Pointers like Ajv's `instancePath`. A property whose name cannot be stored is reported at its
 * parent (so the answer never repeats the character) and not searched further. Iterative, so a
 * deeply nested body cannot overflow the stack.
 */
export function findUnstorableText(root: unknown): TextIssue[] {
  const issues: TextIssue[] = [];
  const pending: [unknown, string][] = [[root, ""]];
  while (pending.length > 0 && issues.length < MAX_ISSUES) {
    const [value, path] = pending.pop()!;
    if (typeof value === "string") {
      const character = unstorableCharacter(value);
      if (character) issues.push({ instancePath: path, message: `must not contain ${character}` });
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) pending.push([value[i], `${path}/${i}`]);
    } else if (value !== null && typeof value === "object") {
      const children: [unknown, string][] = [];
      for (const [key, child] of Object.entries(value)) {
        const character = unstorableCharacter(key);
        if (character) issues.push({ instancePath: path, message: `must not have a property name containing ${character}` });
        else children.push([child, `${path}/${pointerToken(key)}`]);
      }
      for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!);
    }
  }
  return issues;
}

/** Shaped like Fastify's schema-validation error, so the error handler answers it the same way. */
class UnstorableTextError extends Error {
  readonly statusCode = 400;
  constructor(
    readonly validationContext: string,
    readonly validation: TextIssue[],
  ) {
    super(`the request ${validationContext} contains text that cannot be stored`);
  }
}

/** Registered once on the root instance: applies to every route (not to the 404 answer). */
export function registerStorableTextCheck(app: FastifyInstance) {
  // A callback hook, not an async one: it runs on every request and has nothing to wait for.
  app.addHook("preValidation", (request, _reply, done) => {
    if (request.is404) return done();
    // Fastify's own validation order, so the first failing part is the one reported.
    const parts: [string, unknown][] = [["params", request.params], ["body", request.body], ["querystring", request.query]];
    for (const [location, value] of parts) {
      const issues = findUnstorableText(value);
      if (issues.length > 0) return done(new UnstorableTextError(location, issues));
    }
    done();
  });
}
