import { describe, expect, it } from "vitest";
import { BUILT_IN_PROVIDERS } from "../providers/built-in.js";
import { scopesInWords } from "./scope-words.js";

describe("the scopes of the built-in providers in plain words", () => {
  const oauthProviders = BUILT_IN_PROVIDERS.filter((provider) => provider.declaration.auth.type === "oauth2");

  it.each(oauthProviders.map((provider) => [provider.declaration.id, provider] as const))("has words for every scope %s asks for", (_id, provider) => {
    const auth = provider.declaration.auth as { scopes?: string[] };
    const described = scopesInWords(provider.declaration.id, auth.scopes ?? []);
    expect(described.filter((scope) => scope.words === undefined).map((scope) => scope.scope)).toEqual([]);
    for (const { words } of described) expect(words).toMatch(/^[a-z][^<>]*[a-z)]$/);
  });

  it("keys the words by provider: a scope another vendor names the same is not borrowed", () => {
    expect(scopesInWords("gitlab", ["api"])[0]!.words).toMatch(/GitLab/);
    expect(scopesInWords("salesforce", ["api"])[0]!.words).toMatch(/Salesforce/);
    expect(scopesInWords("tenant_tasks", ["api", "repo", "tasks:write"])).toEqual([
      { scope: "api", words: undefined },
      { scope: "repo", words: undefined },
      { scope: "tasks:write", words: undefined },
    ]);
  });

  it("knows OpenID Connect's and refresh scopes at any provider, and never an inherited property name", () => {
    expect(scopesInWords("tenant_tasks", ["openid", "offline_access"]).map((scope) => scope.words)).toEqual(["confirm who you are", expect.stringContaining("stay connected")]);
    expect(scopesInWords("scm", ["constructor", "__proto__", "toString"]).map((scope) => scope.words)).toEqual([undefined, undefined, undefined]);
  });
});
