/**
 * The names model APIs accept for a tool. OpenAI refuses a function name outside
 * `^[a-zA-Z0-9_-]{1,64}$` (so do GitHub Copilot's SDK and Gemini), and most MCP hosts pass MCP
 * names through unchanged, so MCP lists every tool as `gmail_send_message`, not `gmail.send_message`.
 *
 * A name is the dotted one with every other character turned into `_`. Where that is longer than
 * 64 characters, or already taken by a tool listed before it, it is cut and given a short hash of
 * the dotted name (`_` and 8 hex digits): the same catalogue always gives the same names.
 * A copy of the broker's packages/server/src/catalogue/model-safe-names.ts (the client depends on
 * nothing of the server's); the server's model-schema test checks that both name every built-in
 * tool alike. GET /v1/tools gives each tool's assigned name as `mcp_name`, which the adapters use.
 */
export const MODEL_SAFE_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
export const MODEL_SAFE_NAME_MAX = 64;

/** FNV-1a over the UTF-8 bytes: small, the same in every JavaScript runtime, no crypto needed. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/** `gmail.send_message` → `gmail_send_message` (before any length cap or clash). */
export const plainSafeName = (dottedName: string) => dottedName.replace(/[^a-zA-Z0-9_-]/g, "_");

/** The capped form: the plain name cut to fit, `_`, and 8 hex digits of the dotted name's hash. */
export function hashedSafeName(dottedName: string, round = 0): string {
  const suffix = fnv1a(round === 0 ? dottedName : `${dottedName}#${round}`);
  const plain = plainSafeName(dottedName) || "tool";
  return `${plain.slice(0, MODEL_SAFE_NAME_MAX - suffix.length - 1)}_${suffix}`;
}

/**
 * Safe names for a catalogue, in priority order (built-in tools first): a plain name that fits
 * is kept by the first tool that has it; every other tool gets the hashed form.
 */
export function assignSafeNames(dottedNames: readonly string[]): Map<string, string> {
  const assigned = new Map<string, string>();
  const taken = new Set<string>();
  for (const name of dottedNames) {
    const plain = plainSafeName(name);
    if (plain.length === 0 || plain.length > MODEL_SAFE_NAME_MAX || taken.has(plain)) continue;
    assigned.set(name, plain);
    taken.add(plain);
  }
  for (const name of dottedNames) {
    if (assigned.has(name)) continue;
    let round = 0;
    let candidate = hashedSafeName(name);
    while (taken.has(candidate)) candidate = hashedSafeName(name, ++round);
    assigned.set(name, candidate);
    taken.add(candidate);
  }
  return assigned;
}
