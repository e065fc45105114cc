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
         * @description Control key only. A bk_test_ key mints env `test` only, a bk_live_ key env `live` only (403 environment_mismatch).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description SPEC §2.3 */
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: uuid
                         * @description A UUID
                         */
                        agent_app_id: string;
                        /** @enum {string} */
                        env: "test" | "live";
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
    "/v1/tools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tool catalogue: names, argument schemas and risk, ready for an LLM */
        get: {
            parameters: {
                query?: {
                    provider?: string;
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
                                name: string;
                                provider: string;
                                /** @enum {string} */
                                risk: "low" | "high";
                                /** @enum {string} */
                                side_effect: "read" | "write";
                            }[];
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
         * @description 404 not_found: unknown tool, or a handle not in this tenant. 422: invalid_request (body), invalid_tool_args (arguments vs the tool's schema), credential_required, credential_mismatch (other provider or env), connection_unusable (revoked/expired: reconnect). 403 policy_denied. 409 approval_required (details: approval_id, invocation_id, expires_at), approval_* on re-execute, idempotency_key_reused, request_in_progress. 502 upstream_error (details.upstream_status). 503 vault_unavailable. A replayed idempotent response carries `Idempotent-Replayed: true`.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description SPEC §2.1. `agent_app_id` is required with a control key. */
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: uuid
                         * @description A UUID
                         */
                        agent_app_id?: string;
                        approval_id?: string | null;
                        /** @description The tool's arguments (see GET /v1/tools); may be empty */
                        arguments: {
                            [key: string]: unknown;
                        };
                        connected_account_id?: string | null;
                        idempotency_key?: string | null;
                        secret_item_id?: string | null;
                        /** @description `<provider>.<operation>`, e.g. scm.get_authenticated_user */
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
                            approval_id: string | null;
                            completed_at: string | null;
                            connected_account_id: string | null;
                            /** Format: date-time */
                            created_at: string;
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
                            /** @enum {string} */
                            status: "succeeded" | "failed" | "rejected" | "denied" | "awaiting_approval" | "running";
                            tool_name: string;
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
         * @description No body is needed. 409 approval_pending while undecided, 403 policy_denied when denied, 409 approval_expired after expiry. Once approved, the stored call runs exactly once; later continues return the same stored outcome.
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
