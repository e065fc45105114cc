/**
 * Generated from the broker's OpenAPI description by scripts/openapi-types.ts.
 * Do not edit: run `npm run generate -w @toolbroker/client`. A test fails when this file drifts.
 */

export interface paths {
    "/v1/broker/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mint a short-lived broker JWT for an agent app
         * @description Control key only. The token's env is the key's: a bk_test_ key mints env `test`, a bk_live_ key env `live`; `env` may be left out, and naming the other env is 403 environment_mismatch.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description With `end_user_id`, the token acts for that one end user: it may use that end user's connections and the tenant's shared ones, nothing else. */
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: uuid
                         * @description A UUID
                         */
                        agent_app_id: string;
                        /** @description Your own id for one of your users (1–255 characters, no control characters); the broker treats it as opaque */
                        end_user_id?: string;
                        /**
                         * @description Optional: the control key's env (`test` for a bk_test_ key, `live` for bk_live_); the other one is 403 environment_mismatch
                         * @enum {string}
                         */
                        env?: "test" | "live";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Broker JWT: aud `broker`, typ `broker+jwt`, EdDSA */
                            access_token: string;
                            /** @description Seconds until the token expires */
                            expires_in: number;
                            /** @enum {string} */
                            token_type: "Bearer";
                        };
                    };
                };
                /** @description invalid_request / invalid_json: the request does not match its schema */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description unauthorized: missing, invalid or misplaced credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description forbidden, environment_mismatch or policy_denied */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description not_found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description payload_too_large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description unsupported_media_type: send application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description rate_limited: see Retry-After and RateLimit-* headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description vault_unavailable or service_unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect-sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Let one of your end users connect their own accounts through a hosted page
         * @description Returns `connect_url`, valid 30 minutes. Connections made there belong to `end_user_id`: only broker tokens acting for that end user can use them. The env is the control key's (operators name it; default test). The session may connect each provider several times. 422 invalid_request names the field; 422 provider_not_configured for a provider that cannot be connected; 403 environment_mismatch when a control key names another env.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Your own id for one of your users (1–255 characters, no control characters); the broker treats it as opaque */
                        end_user_id: string;
                        /** @enum {string} */
                        env?: "test" | "live";
                        /** @description A name to tell accounts apart: 1–100 characters, no control characters */
                        label?: string;
                        /** @description Providers the page offers; default: every provider that can be connected */
                        providers?: string[];
                        /** @description Where the browser goes after each connect, with `?connected_account_id=…&provider=…` (or `secret_item_id`). https, or http on loopback */
                        redirect_url?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `{BROKER_PUBLIC_URL}/connect/{token}`: give it to the end user; it is the session's only credential */
                            connect_url: string;
                            end_user_id: string;
                            /** @enum {string} */
                            env: "test" | "live";
                            /** Format: date-time */
                            expires_at: string;
                            /**
                             * Format: uuid
                             * @description A UUID
                             */
                            id: string;
                            label: string | null;
                            providers: string[];
                            redirect_url: string | null;
                        };
                    };
                };
                /** @description invalid_request / invalid_json: the request does not match its schema */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description unauthorized: missing, invalid or misplaced credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description forbidden, environment_mismatch or policy_denied */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description payload_too_large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description unsupported_media_type: send application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description the request is well-formed but cannot be processed */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description vault_unavailable or service_unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tool catalogue: names, argument schemas and risk, ready for an LLM
         * @description Sorted by name. `q` keeps the tools whose name, MCP name, title or description contains every word of it (case-insensitive); `provider` (an id or an alias such as `github`), `risk` and `side_effect` filter. Without `limit` and `cursor` every matching tool comes in one page (`next_cursor` null), as before pages existed; with them, at most `limit` (default 50, at most 200) and `next_cursor` for the rest. 400 invalid_request for an unknown parameter, a bad value or a cursor this API did not return.
         */
        get: {
            parameters: {
                query?: {
                    /** @description `next_cursor` of the page before */
                    cursor?: string;
                    /** @description Page size (1–200; 50 when only `cursor` is given). Without `limit` and `cursor` the whole match comes in one page */
                    limit?: number;
                    /** @description A provider id or alias */
                    provider?: string;
                    /** @description Words to search for, e.g. `create issue`: each must appear in the tool's name, MCP name, title or description (case-insensitive) */
                    q?: string;
                    /** @description Only tools of this risk */
                    risk?: "low" | "high";
                    /** @description Only reads, or only writes */
                    side_effect?: "read" | "write";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description JSON Schema of `arguments` */
                                arguments_schema: {
                                    [key: string]: unknown;
                                };
                                auth_modes: ("oauth2" | "api_key")[];
                                description: string;
                                /** @description It deletes or overwrites what was there */
                                destructive: boolean;
                                /** @description Repeating it with the same arguments changes nothing more; null when not declared */
                                idempotent: boolean | null;
                                /** @description The name MCP lists it under and model APIs accept (`gmail_send_message`): unique in the tenant's catalogue; execute and MCP tools/call take either */
                                mcp_name: string;
                                /** @description `<provider>.<operation>`: the name execute, policies and audit use */
                                name: string;
                                /** @description The provider's id (canonical: `scm`, never its alias `github`) */
                                provider: string;
                                /** @enum {string} */
                                risk: "low" | "high";
                                /** @description The OAuth scopes it needs, when declared */
                                scopes: string[];
                                /** @enum {string} */
                                side_effect: "read" | "write";
                                /** @description A short human title, when declared */
                                title: string | null;
                            }[];
                            /** @description Pass as `cursor` for the next page; null on the last */
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description invalid_request / invalid_json: the request does not match its schema */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description unauthorized: missing, invalid or misplaced credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tools/execute": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Execute a tool
         * @description 404 not_found: unknown tool, or a handle not in this tenant. 422: invalid_request (body), invalid_tool_args (arguments vs the tool's schema; details.reason request_too_large when they would fill a declared tool's request past 2 MiB), credential_required (acting for an end user, the webhook event connection.required tells your backend), credential_mismatch (other provider or env), connection_unusable (revoked or expired: reconnect; details.reason origin_changed when the provider no longer has the origins the credential was issued for, and nothing was sent; refresh_interrupted after a refresh cut short by a crash). 403 policy_denied (details.rule_id for a deny rule, details.approval_id for a denied approval; details.reason, when present, is the rule's `reason` or the approver's, also at the end of the message). 409 approval_required (details: approval_id, invocation_id, expires_at), approval_* on re-execute, idempotency_key_reused, request_in_progress, outcome_unknown (the broker stopped while sending this write, or this approved call, under the key; never re-sent). 502 upstream_error (details.upstream_status; details.reason unexpected_response for a 2xx body the tool does not understand; response_too_large with details.limit for an answer whose mapping would take more than 200,000 element × field steps or whose result would hold more than 100,000 values). 503 vault_unavailable. A replayed idempotent response carries `Idempotent-Replayed: true`. An approval_id on a call that needs no approval is ignored and not recorded. A re-execute with approval_id may send the arguments as requested or as the approver edited them; either way the approved (edited) arguments are sent, and the answer's `approval` (on an error, `details.approval`) says whether a person edited the call and what changed.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description `agent_app_id` is required with a control key. `end_user_id` makes a control key act for that end user (a broker JWT carries it as a claim; if both name one, they must agree). */
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: uuid
                         * @description A UUID
                         */
                        agent_app_id?: string;
                        approval_id?: string | null;
                        /**
                         * @description The tool's arguments (see GET /v1/tools). Optional: left out, they are `{}`, and a tool with required arguments answers 422 invalid_tool_args naming them
                         * @default {}
                         */
                        arguments?: {
                            [key: string]: unknown;
                        };
                        connected_account_id?: string | null;
                        /** @description Your own id for one of your users (1–255 characters, no control characters); the broker treats it as opaque */
                        end_user_id?: string;
                        idempotency_key?: string | null;
                        secret_item_id?: string | null;
                        /** @description `<provider>.<operation>`, e.g. scm.get_authenticated_user; its MCP name (`scm_get_authenticated_user`) and a provider alias (`github.get_authenticated_user`) name the same tool */
                        tool_name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Present when the call ran under a person's approval */
                            approval?: {
                                /**
                                 * Format: uuid
                                 * @description A UUID
                                 */
                                approval_id: string;
                                /** @description What the approver changed (empty when not edited); objects are compared field by field, arrays as a whole */
                                changes: {
                                    /** @description The value the agent sent; absent when the approver added the field */
                                    from?: unknown;
                                    /** @description JSON pointer into `arguments`; `/` for the arguments as a whole */
                                    path: string;
                                    /** @description The value that was sent; absent when the approver removed the field */
                                    to?: unknown;
                                }[];
                                /** @description An approver changed the arguments before approving: the call ran with the edited ones */
                                edited: boolean;
                            };
                            /**
                             * Format: uuid
                             * @description A UUID
                             */
                            invocation_id: string;
                            /** @description Tool-specific, scrubbed of credentials */
                            result: unknown;
                        };
                    };
                };
                /** @description invalid_request / invalid_json: the request does not match its schema */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description unauthorized: missing, invalid or misplaced credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description forbidden, environment_mismatch or policy_denied */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description not_found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description a conflict with the resource's current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description payload_too_large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description unsupported_media_type: send application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description the request is well-formed but cannot be processed */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description rate_limited: see Retry-After and RateLimit-* headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description upstream_error */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description vault_unavailable or service_unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tools/invocations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An invocation's status and scrubbed outcome */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description A UUID */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * Format: uuid
                             * @description A UUID
                             */
                            agent_app_id: string;
                            /** @description Present when the call ran under a person's approval */
                            approval?: {
                                /**
                                 * Format: uuid
                                 * @description A UUID
                                 */
                                approval_id: string;
                                /** @description What the approver changed (empty when not edited); objects are compared field by field, arrays as a whole */
                                changes: {
                                    /** @description The value the agent sent; absent when the approver added the field */
                                    from?: unknown;
                                    /** @description JSON pointer into `arguments`; `/` for the arguments as a whole */
                                    path: string;
                                    /** @description The value that was sent; absent when the approver removed the field */
                                    to?: unknown;
                                }[];
                                /** @description An approver changed the arguments before approving: the call ran with the edited ones */
                                edited: boolean;
                            };
                            approval_id: string | null;
                            completed_at: string | null;
                            connected_account_id: string | null;
                            /** Format: date-time */
                            created_at: string;
                            end_user_id: string | null;
                            /** @enum {string} */
                            env: "test" | "live";
                            error?: {
                                [key: string]: unknown;
                            };
                            error_code: string | null;
                            /**
                             * Format: uuid
                             * @description A UUID
                             */
                            invocation_id: string;
                            latency_ms: number | null;
                            result?: unknown;
                            secret_item_id: string | null;
                            /**
                             * @description sending: the request is on its way (or the broker stopped while sending: see unknown). unknown: the broker stopped while sending; whether the provider acted is unknown.
                             * @enum {string}
                             */
                            status: "succeeded" | "failed" | "rejected" | "denied" | "awaiting_approval" | "sending" | "unknown";
                            tool_name: string;
                            /** @description The OpenTelemetry trace (W3C trace id) of the request that first recorded this call; null when tracing was off. Its spans carry `toolbroker.invocation_id`. */
                            trace_id: string | null;
                            upstream_status: number | null;
                        };
                    };
                };
                /** @description invalid_request / invalid_json: the request does not match its schema */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description unauthorized: missing, invalid or misplaced credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description not_found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description vault_unavailable or service_unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tools/invocations/{id}/continue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a call after its approval was decided
         * @description No body is needed. 409 approval_pending while undecided, 403 policy_denied when denied, 409 approval_expired after expiry. Once approved, the stored call runs exactly once; later continues return the same stored outcome. 409 request_in_progress while it runs; if the broker stopped while sending it, 409 outcome_unknown (details.invocation_id) once 5 minutes have passed, never re-sent. 409 idempotency_key_reused when the call's idempotency_key was meanwhile used by another call (nothing runs, the approval stays unused). An approver may have edited the arguments: the edited call is what runs (403 policy_denied if policy now denies it), and `approval` (on an error, `details.approval`) says so with the changes.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description A UUID */
                    id: string;
                };
                cookie?: never;
            };
            /** @description Usually no body. A control key acting for an end user names it, as on execute; a call is only visible to its own end user. Any other field is refused. */
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Your own id for one of your users (1–255 characters, no control characters); the broker treats it as opaque */
                        end_user_id?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Present when the call ran under a person's approval */
                            approval?: {
                                /**
                                 * Format: uuid
                                 * @description A UUID
                                 */
                                approval_id: string;
                                /** @description What the approver changed (empty when not edited); objects are compared field by field, arrays as a whole */
                                changes: {
                                    /** @description The value the agent sent; absent when the approver added the field */
                                    from?: unknown;
                                    /** @description JSON pointer into `arguments`; `/` for the arguments as a whole */
                                    path: string;
                                    /** @description The value that was sent; absent when the approver removed the field */
                                    to?: unknown;
                                }[];
                                /** @description An approver changed the arguments before approving: the call ran with the edited ones */
                                edited: boolean;
                            };
                            /**
                             * Format: uuid
                             * @description A UUID
                             */
                            invocation_id: string;
                            /** @description Tool-specific, scrubbed of credentials */
                            result: unknown;
                        };
                    };
                };
                /** @description invalid_request / invalid_json: the request does not match its schema */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description unauthorized: missing, invalid or misplaced credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description forbidden, environment_mismatch or policy_denied */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description not_found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description a conflict with the resource's current state */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description payload_too_large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description unsupported_media_type: send application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description the request is well-formed but cannot be processed */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description rate_limited: see Retry-After and RateLimit-* headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description upstream_error */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description vault_unavailable or service_unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** Error envelope */
        ErrorEnvelope: {
            error: {
                /** @description Stable machine-readable code (see the README's error table) */
                code: string;
                details?: {
                    [key: string]: unknown;
                };
                message: string;
                request_id?: string;
            };
            /** @enum {boolean} */
            ok: false;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
