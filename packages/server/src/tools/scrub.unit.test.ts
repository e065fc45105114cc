/** What may leave the broker from an upstream answer, without a server or a database. */
import { describe, expect, it } from "vitest";
import { basicCredentialsOf, isCredentialKey, redactArguments, REDACTED, scrub, scrubTargets } from "./scrub.js";

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

describe("scrub: a credential in every encoding it travels in", () => {
  const KEY = `tb+Key/8=x&y z~'"\\é0123456789`;
  const targets = scrubTargets([KEY]);
  const quoted = {
    "encodeURIComponent, upper-case hex": encodeURIComponent(KEY),
    "encodeURIComponent, lower-case hex": encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
    "form-encoded, + for a space": new URLSearchParams({ k: KEY }).toString().slice(2),
    "form-encoded, lower-case hex": new URLSearchParams({ k: KEY }).toString().slice(2).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
    "JSON-escaped": JSON.stringify(KEY).slice(1, -1),
    "JSON-escaped with \\/": JSON.stringify(KEY).slice(1, -1).replace(/\//g, "\\/"),
    "JSON-escaped, ASCII only": JSON.stringify(KEY).slice(1, -1).replace("é", "\\u00e9"),
    "base64 of the key": Buffer.from(KEY).toString("base64"),
    "base64url of the key": Buffer.from(KEY).toString("base64url"),
    "base64 of Basic credentials with the key as user name": Buffer.from(`${KEY}:`).toString("base64"),
  };

  it.each(Object.entries(quoted))("replaces the key %s inside an API's quote of the request", (_, form) => {
    expect(form).not.toBe(KEY);
    const scrubbed = scrub({ message: `GET /v1/items?api_key=${form}&limit=5 refused`, form }, targets) as { message: string; form: string };
    expect(scrubbed).toEqual({ message: `GET /v1/items?api_key=${REDACTED}&limit=5 refused`, form: REDACTED });
  });

  it("replaces Basic credentials of user:secret, with and without form-encoded parts", () => {
    const basic = scrubTargets(basicCredentialsOf("client id", KEY));
    for (const user of ["client id", "client+id"]) {
      const header = `Basic ${Buffer.from(`${user}:${user === "client id" ? KEY : new URLSearchParams({ k: KEY }).toString().slice(2)}`).toString("base64")}`;
      expect(scrub(`you sent ${header}`, basic)).toBe(`you sent Basic ${REDACTED}`);
    }
  });
});

describe("scrub: the size of a result", () => {
  it("refuses a result of more values than maxValues with upstream_error response_too_large", () => {
    const big = Array.from({ length: 10 }, () => ({ a: 1 }));
    expect(scrub(big, [], { maxValues: 21 })).toEqual(big);
    expect(() => scrub(big, [], { maxValues: 20 })).toThrow(expect.objectContaining({ code: "upstream_error", details: { reason: "response_too_large", limit: 20 } }));
  });
});

describe("redactArguments", () => {
  it("redacts credential-like argument fields and nothing else", () => {
    expect(redactArguments({ owner: "octocat", api_key: "k", body: { password: "p", text: "hi" } })).toEqual({ owner: "octocat", api_key: REDACTED, body: { password: REDACTED, text: "hi" } });
  });
});
