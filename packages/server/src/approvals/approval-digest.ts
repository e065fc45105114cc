/**
 * What an approval is bound to, as a short string people can compare across the console, Slack,
 * email and the end user's page: the SHA-256 of the exact call (tenant, env, agent app, end user,
 * tool, credential and arguments). An edit changes the digest; votes are cast on a digest.
 */
import { createHash } from "node:crypto";
import { canonicalJson } from "../shared/canonical-json.js";
import type { Approval } from "./approval.js";

type BoundCall = Pick<Approval, "tenantId" | "env" | "agentAppId" | "endUserId" | "toolName" | "connectionId" | "secretItemId">;

export function callDigest(call: BoundCall, argumentsFingerprint: string): string {
  const bound = [call.tenantId, call.env, call.agentAppId, call.endUserId, call.toolName, call.connectionId, call.secretItemId, argumentsFingerprint];
  return `sha256:${createHash("sha256").update(canonicalJson(bound)).digest("hex")}`;
}

/** The digest of the call that runs if the approval is granted: the edited one, if an approver edited it. */
export const digestOf = (approval: Approval): string => callDigest(approval, approval.edit?.argumentsFingerprint ?? approval.argumentsFingerprint);

/** The digest of the call as the agent asked for it. */
export const requestedDigestOf = (approval: Approval): string => callDigest(approval, approval.argumentsFingerprint);
