/** What may leave the broker from an upstream answer, without a server or a database. */
import { describe, expect, it } from "vitest";
import { isCredentialKey, redactArguments, REDACTED, scrub } from "./scrub.js";

const TOKEN = "gho_16C7e42F292c6912E7710c838347Ae178B4a";

describe("scrub", () => {
  it("replaces a value equal to a credential the call used, and the credential inside longer text", () => {
    expect(scrub({ a: TOKEN, b: `Bearer ${TOKEN} was refused` }, [TOKEN])).toEqual({ a: REDACTED, b: `Bearer ${REDACTED} was refused` });
  });

  it("redacts fields named like credentials at any depth, in any case style", () => {
    const answer = { data: [{ accessToken: "x", refresh_token: "y", "client-secret": "z", Authorization: "Basic q", name: "octocat" }] };
    expect(scrub(answer, [])).toEqual({ data: [{ accessToken: REDACTED, refresh_token: REDACTED, "client-secret": REDACTED, Authorization: REDACTED, name: "octocat" }] });
  });

  it("keeps booleans and nulls under credential-like names: they carry no secret", () => {
    expect(scrub({ token: null, has_password: true, secret: false }, [])).toEqual({ token: null, has_password: true, secret: false });
  });

  it("does not search for very short secrets inside longer strings, but still replaces an exact match", () => {
    expect(scrub({ a: "abcde", b: "xxabcdexx" }, ["abcde"])).toEqual({ a: REDACTED, b: "xxabcdexx" });
  });

  it("stops at 64 levels of nesting", () => {
    let deep: unknown = "leaf";
    for (let i = 0; i < 70; i += 1) deep = [deep];
    expect(JSON.stringify(scrub(deep, []))).toContain(REDACTED);
  });

  it("leaves ordinary field names alone", () => {
    for (const key of ["login", "tokens_used", "description", "author", "session_count"]) expect(isCredentialKey(key), key).toBe(key === "session_count");
  });
});

describe("redactArguments", () => {
  it("redacts credential-like argument fields and nothing else", () => {
    expect(redactArguments({ owner: "octocat", api_key: "k", body: { password: "p", text: "hi" } })).toEqual({ owner: "octocat", api_key: REDACTED, body: { password: REDACTED, text: "hi" } });
  });
});
