/**
 * `@toolbroker/client`: what an agent runtime needs, and nothing that holds a control key.
 * Backends import `@toolbroker/client/control`; model adapters live in `@toolbroker/client/adapters`.
 */
export { AgentClient, type AgentClientOptions, type CallOptions, type ExecuteOptions } from "./agent-client.js";
export type { WaitOptions } from "./approval-wait.js";
export {
  ApprovalRequiredError,
  ApprovalTimeoutError,
  BrokerError,
  CredentialRefusedError,
  InvalidToolArgsError,
  isApprovalRequired,
  isBrokerError,
  isInvalidToolArgs,
  isPayloadTooLarge,
  isPolicyDenied,
  isRateLimited,
  NetworkError,
  PayloadTooLargeError,
  PolicyDeniedError,
  RateLimitedError,
  UnsafeEnvironmentError,
  type BrokerErrorInit,
  type CredentialProblem,
  type FieldIssue,
} from "./errors.js";
export type { RetryOptions } from "./retry.js";
export type { TokenOptions } from "./token-source.js";
export type { TransportOptions } from "./transport.js";
export type * from "./types.js";
