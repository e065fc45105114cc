/** Helpers for tests that drive a fake's authorize step directly, the way a browser would. */
import { randomBytes } from "node:crypto";
import { pkceChallengeOf } from "./oauth-state.js";

export type AuthorizationResult = {
  status: number;
  /** The Location the fake redirected to, when it did. */
  location: URL | undefined;
  code: string | undefined;
  state: string | undefined;
  error: string | undefined;
};

export function newPkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: pkceChallengeOf(verifier) };
}

/** Follows an authorize URL one hop (the fake auto-approves) and reads the callback parameters. */
export async function completeAuthorization(authorizeUrl: string | URL): Promise<AuthorizationResult> {
  const response = await fetch(authorizeUrl, { redirect: "manual" });
  await response.arrayBuffer();
  const location = response.headers.get("location");
  const target = location ? new URL(location) : undefined;
  return {
    status: response.status,
    location: target,
    code: target?.searchParams.get("code") ?? undefined,
    state: target?.searchParams.get("state") ?? undefined,
    error: target?.searchParams.get("error") ?? undefined,
  };
}
