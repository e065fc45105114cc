/** `@toolbroker/client/control`: for customer backends holding a control key. Never for agents. */
export { ControlClient, type ControlClientOptions, type MintTokenInput } from "./control-client.js";
export {
  BrokerError,
  CredentialRefusedError,
  isBrokerError,
  isPayloadTooLarge,
  isRateLimited,
  NetworkError,
  PayloadTooLargeError,
  RateLimitedError,
  UnsafeEnvironmentError,
} from "./errors.js";
export type { RetryOptions } from "./retry.js";
export type { BrokerToken, MintTokenRequest } from "./types.js";
