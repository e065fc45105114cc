/**
 * Other names of built-in providers: `github`, `slack` and `linear` are the vendors' names for
 * `scm`, `chat` and `tracker`, which keep their ids (callers and stored rows use them). A caller
 * may name a provider or a tool (`github.create_issue`) by either; the broker answers with the
 * canonical id. A tenant cannot declare a provider under an alias.
 */
import { BUILT_IN_PROVIDERS } from "./built-in.js";

const CANONICAL_BY_ALIAS: ReadonlyMap<string, string> = new Map(BUILT_IN_PROVIDERS.flatMap(({ declaration, aliases }) => (aliases ?? []).map((alias) => [alias, declaration.id] as const)));

/** The built-in provider an alias names, or undefined when `id` is no alias. */
export const providerOfAlias = (id: string): string | undefined => CANONICAL_BY_ALIAS.get(id);

/** A provider id as the broker stores it: an alias becomes its canonical id; anything else is kept. */
export const canonicalProviderId = (id: string): string => CANONICAL_BY_ALIAS.get(id) ?? id;

/** `github.create_issue` → `scm.create_issue`; a name without an aliased provider is kept. */
export function canonicalToolName(name: string): string {
  const dot = name.indexOf(".");
  if (dot <= 0) return name;
  const canonical = CANONICAL_BY_ALIAS.get(name.slice(0, dot));
  return canonical ? `${canonical}${name.slice(dot)}` : name;
}

/** Every alias with the id it names, for documentation and listings. */
export const PROVIDER_ALIASES: ReadonlyArray<{ alias: string; provider: string }> = [...CANONICAL_BY_ALIAS].map(([alias, provider]) => ({ alias, provider }));
