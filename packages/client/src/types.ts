/**
 * Request and response types, taken from `generated/api.ts` (generated from the broker's OpenAPI
 * description) so that they are never written by hand a second time.
 */
import type { components, paths } from "./generated/api.js";

type JsonOf<T> = T extends { content: { "application/json": infer Body } } ? Body : never;
type Ok<Operation> = Operation extends { responses: { 200: infer Answer } } ? JsonOf<Answer> : never;
type Created<Operation> = Operation extends { responses: { 201: infer Answer } } ? JsonOf<Answer> : never;
type BodyOf<Operation> = Operation extends { requestBody?: infer Body } ? JsonOf<NonNullable<Body>> : never;

/** One entry of `GET /v1/tools`: name, description, JSON Schema of the arguments, risk. */
export type Tool = Ok<paths["/v1/tools"]["get"]>["data"][number];
export type ListToolsQuery = NonNullable<paths["/v1/tools"]["get"]["parameters"]["query"]>;

type ExecuteBody = BodyOf<paths["/v1/tools/execute"]["post"]>;
/**
 * Body of `POST /v1/tools/execute` as an agent sends it. `agent_app_id` is left out: it is only
 * for control-key callers; a broker JWT already names its agent app.
 */
export type ExecuteRequest = Omit<ExecuteBody, "agent_app_id">;
export type ExecuteResult = Ok<paths["/v1/tools/execute"]["post"]>;
export type ContinueResult = Ok<paths["/v1/tools/invocations/{id}/continue"]["post"]>;
/**
 * `approval` of a result: the call ran under a person's approval. When `edited`, the approver
 * changed the arguments before approving and the call ran with theirs; `changes` says how.
 */
export type ApprovalNote = NonNullable<ExecuteResult["approval"]>;
/** One change an approver made: a JSON pointer into `arguments`, the value sent before and the one that ran. */
export type ArgumentChange = ApprovalNote["changes"][number];
export type Invocation = Ok<paths["/v1/tools/invocations/{id}"]["get"]>;

export type MintTokenRequest = BodyOf<paths["/v1/broker/token"]["post"]>;
export type BrokerToken = Ok<paths["/v1/broker/token"]["post"]>;

/** Body of `POST /v1/connect-sessions`: which end user, which providers, where to send the browser after. */
export type ConnectSessionRequest = BodyOf<paths["/v1/connect-sessions"]["post"]>;
/** A connect session: give `connect_url` to the end user; it is valid until `expires_at`. */
export type ConnectSession = Created<paths["/v1/connect-sessions"]["post"]>;

export type ErrorEnvelope = components["schemas"]["ErrorEnvelope"];
export type SideEffect = Tool["side_effect"];
