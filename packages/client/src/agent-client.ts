/**
 * The client an agent runtime uses. It holds only a broker JWT (never a control key),
 * lists tools, executes them, and resumes calls after a human approval.
 */
import { waitForDecision, type WaitOptions } from "./approval-wait.js";
import { isApprovalRequired } from "./errors.js";
import { newIdempotencyKey } from "./idempotency.js";
import { createTokenSource, type TokenOptions } from "./token-source.js";
import { createTransport, type Transport, type TransportOptions } from "./transport.js";
import type { ContinueResult, ExecuteRequest, ExecuteResult, Invocation, ListToolsQuery, SideEffect, Tool } from "./types.js";

export type AgentClientOptions = TransportOptions & TokenOptions;

export type CallOptions = { signal?: AbortSignal };

export type ExecuteOptions = CallOptions & {
  /**
   * Whether the tool writes, for a tool the client has not seen in `listTools()` (the catalogue
   * wins when it has). Writes and tools of unknown kind always carry an idempotency key.
   */
  sideEffect?: SideEffect;
};

export class AgentClient {
  readonly #transport: Transport;
  /** Side effects learnt from `listTools()`, so reads can skip the idempotency key. */
  readonly #sideEffects = new Map<string, SideEffect>();

  constructor(options: AgentClientOptions) {
    if (typeof options !== "object" || options === null) throw new TypeError("AgentClient needs options: { baseUrl, token | getToken }");
    this.#transport = createTransport(options, createTokenSource(options));
  }

  /** `GET /v1/tools`: the catalogue, with each tool's argument schema, risk and side effect. */
  async listTools(query: ListToolsQuery = {}, options: CallOptions = {}): Promise<Tool[]> {
    const { data } = await this.#transport.send<{ data: Tool[] }>({ method: "GET", path: "/v1/tools", query: { provider: query.provider }, signal: options.signal });
    for (const tool of data) this.#sideEffects.set(tool.name, tool.side_effect);
    return data;
  }

  /**
   * `POST /v1/tools/execute`. A write (or a tool of unknown kind) without an `idempotency_key`
   * gets a generated one, reused by every retry of this call, so a retry never repeats a side
   * effect. Throws `ApprovalRequiredError` when a human must decide first (see `executeAndWait`).
   */
  async execute(request: ExecuteRequest, options: ExecuteOptions = {}): Promise<ExecuteResult> {
    const body = this.#executeBody(request, options.sideEffect);
    return this.#transport.send<ExecuteResult>({ method: "POST", path: "/v1/tools/execute", body, signal: options.signal });
  }

  /** `POST /v1/tools/invocations/{id}/continue`: resume a call after its approval was decided. */
  async continue(invocationId: string, options: CallOptions = {}): Promise<ContinueResult> {
    return this.#transport.send<ContinueResult>({ method: "POST", path: `/v1/tools/invocations/${pathSegment(invocationId)}/continue`, signal: options.signal });
  }

  /** `GET /v1/tools/invocations/{id}`: status and scrubbed outcome of one invocation. */
  async getInvocation(invocationId: string, options: CallOptions = {}): Promise<Invocation> {
    return this.#transport.send<Invocation>({ method: "GET", path: `/v1/tools/invocations/${pathSegment(invocationId)}`, signal: options.signal });
  }

  /**
   * `execute`, and when the broker answers `approval_required`, wait for the human decision by
   * polling `continue` with backoff. Resolves with the result once approved; rejects with
   * `PolicyDeniedError` when denied, a `BrokerError` coded `approval_expired` when it lapsed,
   * `ApprovalTimeoutError` after `timeout`, or the signal's reason when aborted.
   */
  async executeAndWait(request: ExecuteRequest, options: WaitOptions & ExecuteOptions = {}): Promise<ExecuteResult> {
    try {
      return await this.execute(request, options);
    } catch (error) {
      if (!isApprovalRequired(error)) throw error;
      return waitForDecision((id, call) => this.continue(id, call), error, options);
    }
  }

  #executeBody(request: ExecuteRequest, hint: SideEffect | undefined): ExecuteRequest {
    if (typeof request !== "object" || request === null || typeof request.tool_name !== "string") {
      throw new TypeError("execute needs { tool_name } (arguments default to {})");
    }
    // What the catalogue says wins over a hint: a known write always carries a key.
    const sideEffect = this.#sideEffects.get(request.tool_name) ?? hint;
    const idempotencyKey = request.idempotency_key ?? (sideEffect === "read" ? undefined : newIdempotencyKey());
    // Only the fields an agent may send: never `agent_app_id`, nothing unknown.
    return definedFields({
      tool_name: request.tool_name,
      arguments: request.arguments ?? {},
      connected_account_id: request.connected_account_id,
      secret_item_id: request.secret_item_id,
      idempotency_key: idempotencyKey,
      approval_id: request.approval_id,
    });
  }
}

function pathSegment(id: string): string {
  if (typeof id !== "string" || id === "") throw new TypeError("an invocation id is required");
  return encodeURIComponent(id);
}

function definedFields<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}
