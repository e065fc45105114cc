/**
 * Generated from the broker's OpenAPI description by scripts/openapi-types.ts.
 * Do not edit: run `npm run generate -w @toolbroker/console`.
 */

export interface paths {
    "/v1/agent-apps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List agent apps */
        get: {
            parameters: {
                query?: never;
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
                            data: components["schemas"]["AgentApp"][];
                        };
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
        /** Create an agent app */
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
                        name: string;
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
                            /** Format: date-time */
                            created_at: string;
                            disabled_at: string | null;
                            /**
                             * Format: uuid
                             * @description A UUID
                             */
                            id: string;
                            name: string;
                            status: "active" | "disabled";
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
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agent-apps/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an agent app */
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
                            /** Format: date-time */
                            created_at: string;
                            disabled_at: string | null;
                            /**
                             * Format: uuid
                             * @description A UUID
                             */
                            id: string;
                            name: string;
                            status: "active" | "disabled";
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
            };
        };
        put?: never;
        post?: never;
        /**
         * Disable an agent app
         * @description It can no longer mint broker JWTs; tokens already minted expire on their own (at most their lifetime).
         */
        delete: {
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
                            /** Format: date-time */
                            created_at: string;
                            disabled_at: string | null;
                            /**
                             * Format: uuid
                             * @description A UUID
                             */
                            id: string;
                            name: string;
                            status: "active" | "disabled";
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
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/approval-settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's approval channels */
        get: {
            parameters: {
                query?: never;
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
                            /** @description Where approvals go besides the console when their policy rule names no channels (none for approvals the end user decides) */
                            channels: ("slack" | "email")[];
                            /** @description The shared Slack connection approval messages are posted through, and the channel */
                            slack: {
                                /** @description A channel id (C024BE91L) or name (#approvals) the Slack app is a member of */
                                channel: string;
                                /**
                                 * Format: uuid
                                 * @description A UUID
                                 */
                                connected_account_id: string;
                            } | null;
                            updated_at: string | null;
                            updated_by: string | null;
                        };
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
            };
        };
        /**
         * Set the tenant's approval channels and Slack connection
         * @description `slack` is required when `channels` names slack. Its connected account must be the tenant's own shared, active Slack connection: 404 for an unknown one (or another tenant's), 422 credential_mismatch for another provider's or an end user's, 422 connection_unusable for an expired or revoked one. Audited as `approval_settings.updated`.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Where approvals go besides the console when their policy rule names no channels (none for approvals the end user decides) */
                        channels: ("slack" | "email")[];
                        slack?: {
                            /** @description A channel id (C024BE91L) or name (#approvals) the Slack app is a member of */
                            channel: string;
                            /**
                             * Format: uuid
                             * @description A UUID
                             */
                            connected_account_id: string;
                        } | null;
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
                            /** @description Where approvals go besides the console when their policy rule names no channels (none for approvals the end user decides) */
                            channels: ("slack" | "email")[];
                            /** @description The shared Slack connection approval messages are posted through, and the channel */
                            slack: {
                                /** @description A channel id (C024BE91L) or name (#approvals) the Slack app is a member of */
                                channel: string;
                                /**
                                 * Format: uuid
                                 * @description A UUID
                                 */
                                connected_account_id: string;
                            } | null;
                            updated_at: string | null;
                            updated_by: string | null;
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
                /** @description the request is well-formed but cannot be processed */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/approvals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Approvals: pending ones oldest first (default), or decided or all newest first
         * @description An operator session (`end_user_url` only for admins: viewers read null), or a control key (the customer's backend: its own environment's approvals, with `end_user_url`).
         */
        get: {
            parameters: {
                query?: {
                    cursor?: string;
                    limit?: number;
                    /** @description decided: approved, denied, used or expired */
                    status?: "pending" | "decided" | "all";
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
                            data: components["schemas"]["Approval"][];
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
    "/v1/approvals/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One approval, in any state
         * @description An operator session (`end_user_url` only for admins: viewers read null), or a control key (the customer's backend: its own environment's approvals, with `end_user_url`). 404 for another tenant's approval, or another environment's for a control key.
         */
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
                            account: {
                                display_name: string;
                                /**
                                 * Format: uuid
                                 * @description A UUID
                                 */
                                id: string;
                                /** @enum {string} */
                                kind: "connection" | "secret_item";
                            } | null;
                            agent_app: {
                                /**
                                 * Format: uuid
                                 * @description A UUID
                                 */
                                id: string;
                                name: string;
                            };
                            /**
                             * Format: uuid
                             * @description A UUID
                             */
                            agent_app_id: string;
                            /**
                             * Format: uuid
                             * @description A UUID
                             */
                            approval_id: string;
                            approvers: {
                                /** @description Approving votes from eligible people on the current digest */
                                approved: number;
                                /** @description Approving votes needed on the current digest */
                                needed: number;
                                /** @description Whether the member who created the calling agent app may approve it */
                                requester_may_approve: boolean;
                                /** @description Who decides: `count` of the admins or of a group, every member listed, or the end user the call acts for */
                                rule: {
                                    count: number;
                                    of: "admins" | {
                                        group: string;
                                    };
                                } | {
                                    all_of: string[];
                                } | "end_user";
                                /** @description Every vote, on any version of the call; only those on `digest` count */
                                votes: {
                                    /** Format: date-time */
                                    decided_at: string;
                                    /** @enum {string} */
                                    decision: "approve" | "deny";
                                    /** @description SHA-256 of the exact call: tenant, env, agent app, end user, tool, credential and arguments */
                                    digest: string;
                                    reason: string | null;
                                    /** @enum {string} */
                                    via: "api" | "console" | "slack" | "email" | "end_user_page";
                                    voter: {
                                        display_name: string | null;
                                        /**
                                         * Format: uuid
                                         * @description A UUID
                                         */
                                        id: string;
                                        /** @enum {string} */
                                        kind: "member";
                                    } | {
                                        id: string;
                                        /** @enum {string} */
                                        kind: "end_user";
                                    };
                                }[];
                                /** @description Eligible members without a vote on the current digest, while the approval is pending */
                                waiting_for: {
                                    display_name: string | null;
                                    /**
                                     * Format: uuid
                                     * @description A UUID
                                     */
                                    member_id: string;
                                }[];
                            };
                            /** @description The arguments the agent sent, credential-like fields redacted */
                            arguments: {
                                [key: string]: unknown;
                            };
                            connected_account_id: string | null;
                            consumed_at: string | null;
                            decision: {
                                /** Format: date-time */
                                decided_at: string;
                                decided_by: string | null;
                                /** @enum {string} */
                                decision: "approve" | "deny";
                                reason: string | null;
                            } | null;
                            /** @description How each channel (Slack, email) fared with the request, the reminder and the outcome */
                            deliveries: {
                                attempts: number;
                                /** @enum {string} */
                                channel: "slack" | "email";
                                /** @description Why the last attempt failed, worded without secrets */
                                last_error: string | null;
                                /** @description When a pending delivery is tried next */
                                next_attempt_at: string | null;
                                /** @enum {string} */
                                purpose: "request" | "reminder" | "outcome";
                                sent_at: string | null;
                                /**
                                 * @description gave_up: the attempts were spent (or the approval was decided first); the approval stays in the console
                                 * @enum {string}
                                 */
                                status: "pending" | "sent" | "gave_up";
                            }[];
                            /** @description SHA-256 of the exact call: tenant, env, agent app, end user, tool, credential and arguments */
                            digest: string;
                            /** @description The approver's edit: the call runs with these arguments if approved */
                            edit: {
                                /** @description The edited arguments, credential-like fields redacted */
                                arguments: {
                                    [key: string]: unknown;
                                };
                                changes: {
                                    from?: unknown;
                                    /** @description JSON pointer into the arguments */
                                    path: string;
                                    to?: unknown;
                                }[];
                                /** Format: date-time */
                                edited_at: string;
                                /** @description member:<member id> */
                                edited_by: string;
                            } | null;
                            edits_allowed: boolean;
                            /** @description The end user the call acts for, if any */
                            end_user_id: string | null;
                            /** @description The end user's hosted approval page, when the end user decides; shown to admins and control keys (the customer's backend), null for viewers */
                            end_user_url: string | null;
                            /** @enum {string} */
                            env: "test" | "live";
                            /** Format: date-time */
                            expires_at: string;
                            /**
                             * Format: uuid
                             * @description A UUID
                             */
                            invocation_id: string;
                            provider: string;
                            /** Format: date-time */
                            requested_at: string;
                            /** @description SHA-256 of the exact call: tenant, env, agent app, end user, tool, credential and arguments */
                            requested_digest: string;
                            /** @description The tool's risk; null for a tool no longer in the catalogue */
                            risk: ("low" | "high") | null;
                            rule_id: string | null;
                            secret_item_id: string | null;
                            /** @enum {string} */
                            status: "pending" | "approved" | "denied" | "expired" | "consumed";
                            tool_name: string;
                            /** @description The operator asking: whether they may vote now, and their vote on the current digest (null for a control key) */
                            you: {
                                may_decide: boolean;
                                vote: ("approve" | "deny") | null;
                            } | null;
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
    "/v1/approvals/{id}/arguments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reveal the exact arguments of an approval's call (admins; audited)
         * @description Answers the arguments unredacted and records `approval.arguments_revealed` in the audit log. `arguments` are the ones the call will send: an approver's edit when the call was edited, else the agent's. `requested_arguments` are the ones the agent sent (equal to `arguments` when nobody edited). Only while the approval is pending: 409 conflict once it was decided, expired or used.
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
                            approval_id: string;
                            /** @description Exactly what the call will send if approved (the edited arguments when edited) */
                            arguments: {
                                [key: string]: unknown;
                            };
                            /** @description Exactly what the agent sent */
                            requested_arguments: {
                                [key: string]: unknown;
                            };
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
    "/v1/approvals/{id}/decide": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Vote to approve (optionally with edited arguments) or deny a pending call
         * @description Any member the approval's policy rule names may vote (403 approval_not_eligible otherwise). One deny ends it; it is approved once enough members approved the call as it will run (`digest`). `arguments` (approve only) edit the call: they must fit the tool's schema (422 invalid_tool_args) and policy must still send the edited call to the same rule (403 approval_edit_refused); a rule with `edits: forbidden` refuses them (403 approval_edit_forbidden). An edit makes earlier approving votes stale. An approve is bound to the version its voter reviewed: send that `digest` (without it, the call as requested); when the call was edited since, 409 approval_changed (details.digest: the current one; details.expected: yours) and nothing is recorded. A vote's `via` is `console` when the request carries `X-Broker-Client: console` (the console sends it), else `api`. The same vote again answers 200 and counts once; the other vote on the same version is 409 approval_already_decided (with details.vote). 409 approval_already_decided once decided, 409 approval_expired after its expiry, 404 for another tenant's approval.
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
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Edited arguments (approve only): the call that runs instead of the one requested */
                        arguments?: {
                            [key: string]: unknown;
                        };
                        /** @enum {string} */
                        decision: "approve" | "deny";
                        /** @description The approval's `digest` as you reviewed it. An approve counts only for the call as it stands: when it was edited since (its digest is another), 409 approval_changed. Absent: the call as the agent requested it (`requested_digest`). A deny is taken on any version. */
                        digest?: string;
                        reason?: string;
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
                            account: {
                                display_name: string;
                                /**
                                 * Format: uuid
                                 * @description A UUID
                                 */
                                id: string;
                                /** @enum {string} */
                                kind: "connection" | "secret_item";
                            } | null;
                            agent_app: {
                                /**
                                 * Format: uuid
                                 * @description A UUID
                                 */
                                id: string;
                                name: string;
                            };
                            /**
                             * Format: uuid
                             * @description A UUID
                             */
                            agent_app_id: string;
                            /**
                             * Format: uuid
                             * @description A UUID
                             */
                            approval_id: string;
                            approvers: {
                                /** @description Approving votes from eligible people on the current digest */
                                approved: number;
                                /** @description Approving votes needed on the current digest */
                                needed: number;
                                /** @description Whether the member who created the calling agent app may approve it */
                                requester_may_approve: boolean;
                                /** @description Who decides: `count` of the admins or of a group, every member listed, or the end user the call acts for */
                                rule: {
                                    count: number;
                                    of: "admins" | {
                                        group: string;
                                    };
                                } | {
                                    all_of: string[];
                                } | "end_user";
                                /** @description Every vote, on any version of the call; only those on `digest` count */
                                votes: {
                                    /** Format: date-time */
                                    decided_at: string;
                                    /** @enum {string} */
                                    decision: "approve" | "deny";
                                    /** @description SHA-256 of the exact call: tenant, env, agent app, end user, tool, credential and arguments */
                                    digest: string;
                                    reason: string | null;
                                    /** @enum {string} */
                                    via: "api" | "console" | "slack" | "email" | "end_user_page";
                                    voter: {
                                        display_name: string | null;
                                        /**
                                         * Format: uuid
                                         * @description A UUID
                                         */
                                        id: string;
                                        /** @enum {string} */
                                        kind: "member";
                                    } | {
                                        id: string;
                                        /** @enum {string} */
                                        kind: "end_user";
                                    };
                                }[];
                                /** @description Eligible members without a vote on the current digest, while the approval is pending */
                                waiting_for: {
                                    display_name: string | null;
                                    /**
                                     * Format: uuid
                                     * @description A UUID
                                     */
                                    member_id: string;
                                }[];
                            };
                            /** @description The arguments the agent sent, credential-like fields redacted */
                            arguments: {
                                [key: string]: unknown;
                            };
                            connected_account_id: string | null;
                            consumed_at: string | null;
                            decision: {
                                /** Format: date-time */
                                decided_at: string;
                                decided_by: string | null;
                                /** @enum {string} */
                                decision: "approve" | "deny";
                                reason: string | null;
                            } | null;
                            /** @description How each channel (Slack, email) fared with the request, the reminder and the outcome */
                            deliveries: {
                                attempts: number;
                                /** @enum {string} */
                                channel: "slack" | "email";
                                /** @description Why the last attempt failed, worded without secrets */
                                last_error: string | null;
                                /** @description When a pending delivery is tried next */
                                next_attempt_at: string | null;
                                /** @enum {string} */
                                purpose: "request" | "reminder" | "outcome";
                                sent_at: string | null;
                                /**
                                 * @description gave_up: the attempts were spent (or the approval was decided first); the approval stays in the console
                                 * @enum {string}
                                 */
                                status: "pending" | "sent" | "gave_up";
                            }[];
                            /** @description SHA-256 of the exact call: tenant, env, agent app, end user, tool, credential and arguments */
                            digest: string;
                            /** @description The approver's edit: the call runs with these arguments if approved */
                            edit: {
                                /** @description The edited arguments, credential-like fields redacted */
                                arguments: {
                                    [key: string]: unknown;
                                };
                                changes: {
                                    from?: unknown;
                                    /** @description JSON pointer into the arguments */
                                    path: string;
                                    to?: unknown;
                                }[];
                                /** Format: date-time */
                                edited_at: string;
                                /** @description member:<member id> */
                                edited_by: string;
                            } | null;
                            edits_allowed: boolean;
                            /** @description The end user the call acts for, if any */
                            end_user_id: string | null;
                            /** @description The end user's hosted approval page, when the end user decides; shown to admins and control keys (the customer's backend), null for viewers */
                            end_user_url: string | null;
                            /** @enum {string} */
                            env: "test" | "live";
                            /** Format: date-time */
                            expires_at: string;
                            /**
                             * Format: uuid
                             * @description A UUID
                             */
                            invocation_id: string;
                            provider: string;
                            /** Format: date-time */
                            requested_at: string;
                            /** @description SHA-256 of the exact call: tenant, env, agent app, end user, tool, credential and arguments */
                            requested_digest: string;
                            /** @description The tool's risk; null for a tool no longer in the catalogue */
                            risk: ("low" | "high") | null;
                            rule_id: string | null;
                            secret_item_id: string | null;
                            /** @enum {string} */
                            status: "pending" | "approved" | "denied" | "expired" | "consumed";
                            tool_name: string;
                            /** @description The operator asking: whether they may vote now, and their vote on the current digest (null for a control key) */
                            you: {
                                may_decide: boolean;
                                vote: ("approve" | "deny") | null;
                            } | null;
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
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List audit events, newest first */
        get: {
            parameters: {
                query?: {
                    action?: string;
                    /** @description A UUID */
                    agent_app_id?: string;
                    cursor?: string;
                    /** @description Only events for this end user */
                    end_user_id?: string;
                    limit?: number;
                    outcome?: string;
                    since?: string;
                    tool?: string;
                    until?: string;
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
                            data: components["schemas"]["AuditEvent"][];
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
    "/v1/audit/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Checks the tenant's audit hash chain (as `toolbroker audit verify` does); admins
         * @description Reads the whole chain a page at a time; on a long log it takes a while, so it is for admins.
         */
        get: {
            parameters: {
                query?: never;
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
                            /** @description The first row whose link does not hold */
                            broken_at_seq: number | null;
                            events: number;
                            intact: boolean;
                            reason: string | null;
                        };
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
    "/v1/billing/invoice-preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Preview the monthly invoice of a period (test mode)
         * @description Usage is the executions that reached the upstream (OAuth connects, denied and approval-required calls are not metered); executions with test and live credentials both count. Amounts are integers in minor units (cents). Overage is billed per started block of 1,000 executions above the plan's allowance. Defaults to the current period (usage so far). A finalized period returns its frozen invoice. Errors: 422 `period_out_of_range` for a period before the tenant existed or not started yet. Audited.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description The body may be omitted; the period defaults to the current one */
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description Billing period: a calendar month in UTC, `YYYY-MM`
                         * @example 2026-01
                         */
                        period?: string;
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
                            catalogue_version: string;
                            currency: string;
                            /** @description What the customer used, owes, and whether another plan would suit better */
                            customer_notice: string;
                            /** Format: date-time */
                            generated_at: string;
                            /** @description Set once the period is finalized; null on a draft */
                            id: string | null;
                            line_items: {
                                /** @description quantity × unit_amount, integer minor units (cents) of the currency */
                                amount: number;
                                description: string;
                                /** @description 1 for the base fee; started blocks of 1,000 executions for overage */
                                quantity: number;
                                /** @enum {string} */
                                type: "base_fee" | "overage";
                                /** @description Price per unit, integer minor units (cents) of the currency */
                                unit_amount: number;
                            }[];
                            /** @enum {boolean} */
                            livemode: false;
                            /** @enum {string} */
                            object: "invoice";
                            /**
                             * @description Billing period: a calendar month in UTC, `YYYY-MM`
                             * @example 2026-01
                             */
                            period: string;
                            /**
                             * Format: date-time
                             * @description Exclusive end: the first instant of the next month
                             */
                            period_end: string;
                            /** Format: date-time */
                            period_start: string;
                            plan: {
                                id: string;
                                name: string;
                            };
                            plan_match: components["schemas"]["BillingPlanMatch"];
                            /** @enum {string} */
                            status: "draft" | "finalized";
                            /** @description Sum of the line items, integer minor units (cents) of the currency */
                            subtotal: number;
                            /** @description Amount due; no tax or discounts in test mode, integer minor units (cents) of the currency */
                            total: number;
                            usage: {
                                /** @description Both environments count towards usage; this is the breakdown */
                                by_env: {
                                    /** @description Executions with live credentials */
                                    live: number;
                                    /** @description Executions with test credentials */
                                    test: number;
                                };
                                /** @description Executions of the period, both environments */
                                executions: number;
                                /** @description Allowance of the plan */
                                included_executions: number;
                                /** @description Started blocks of 1,000 overage executions */
                                overage_blocks: number;
                                /** @description Executions above the allowance */
                                overage_executions: number;
                            };
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
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Metering mode, this month's usage, projection and plan-match preview
         * @description Usage is the executions that reached the upstream (OAuth connects, denied and approval-required calls are not metered); executions with test and live credentials both count. Amounts are integers in minor units (cents). Overage is billed per started block of 1,000 executions above the plan's allowance. The projection is linear on the elapsed fraction of the month; the plan match is the cheapest plan for the projected executions (ties keep the current plan). Reading status first reports unreported usage to the metering ledger.
         */
        get: {
            parameters: {
                query?: never;
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
                            /** Format: date-time */
                            as_of: string;
                            catalogue_version: string;
                            currency: string;
                            /** @enum {boolean} */
                            livemode: false;
                            metering: {
                                /**
                                 * @description `test`: usage is reported to the test ledger; `off`: not reported
                                 * @enum {string}
                                 */
                                mode: "test" | "off";
                                /** @description Executions of the current period reported to the ledger */
                                reported_executions: number;
                                /** @description Executions of the current period not reported yet: reading status reports new ones first; one recorded more than ten minutes after a newer one was reported waits for the next finalization of its period or a later one */
                                unreported_executions: number;
                            };
                            period: {
                                /** Format: date-time */
                                end: string;
                                /**
                                 * @description Billing period: a calendar month in UTC, `YYYY-MM`
                                 * @example 2026-01
                                 */
                                id: string;
                                /** Format: date-time */
                                start: string;
                            };
                            plan: components["schemas"]["BillingPlan"];
                            plan_match: components["schemas"]["BillingPlanMatch"];
                            /** @description floor(executions so far × month length ÷ elapsed time), elapsed counting at least one hour */
                            projection: {
                                /** @description Projected executions at month end */
                                executions: number;
                                /** @enum {string} */
                                method: "linear";
                                /** @description Projected cost on the current plan, integer minor units (cents) of the currency */
                                monthly_cost: number;
                                /** @description Projected started overage blocks */
                                overage_blocks: number;
                            };
                            usage: {
                                /** @description Base fee plus overage so far, integer minor units (cents) of the currency */
                                amount_due_so_far: number;
                                /** @description Both environments count towards usage; this is the breakdown */
                                by_env: {
                                    /** @description Executions with live credentials */
                                    live: number;
                                    /** @description Executions with test credentials */
                                    test: number;
                                };
                                /** @description Executions so far this period, both environments */
                                executions: number;
                                /** @description Allowance of the current plan */
                                included_executions: number;
                                /** @description Overage so far, integer minor units (cents) of the currency */
                                overage_amount: number;
                                /** @description Started blocks of 1,000 overage executions so far */
                                overage_blocks: number;
                                /** @description Executions above the allowance so far */
                                overage_executions: number;
                                /** @description Allowance left */
                                remaining_included_executions: number;
                            };
                        };
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
    "/v1/branding": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The name and logo your end users see on the hosted connect page */
        get: {
            parameters: {
                query?: never;
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
                            /** @description As set; null: the pages show the tenant's name */
                            display_name: string | null;
                            /** @description null: the pages show a badge with the name's initial */
                            logo: {
                                bytes: number;
                                /** @enum {string} */
                                content_type: "image/png" | "image/jpeg" | "image/webp";
                                /** @description The image as a data: URL, to show it */
                                data_url: string;
                                sha256: string;
                            } | null;
                            /** @description The name the pages show: display_name, or else the tenant's name */
                            page_name: string;
                            updated_at: string | null;
                            updated_by: string | null;
                        };
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
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Set the name and logo your end users see on the hosted connect page
         * @description Each field is optional: a field left out keeps its value, `null` clears it. The logo is the image itself, never a URL: PNG, JPEG or WebP, at most 100 KiB, its `content_type` matching its bytes; the broker sends it inside its own pages, so an end user's browser fetches nothing from elsewhere. 422 invalid_request names the field (not base64, too large, not such an image, a type that does not match the bytes). Admins only. Audited as `branding.updated` (the logo by type, size and SHA-256).
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        display_name?: string | null;
                        logo?: {
                            /**
                             * @description What the image is; it must match its bytes (SVG is not accepted)
                             * @enum {string}
                             */
                            content_type: "image/png" | "image/jpeg" | "image/webp";
                            /** @description The image, standard base64 with padding; at most 102400 bytes decoded */
                            data_base64: string;
                        } | null;
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
                            /** @description As set; null: the pages show the tenant's name */
                            display_name: string | null;
                            /** @description null: the pages show a badge with the name's initial */
                            logo: {
                                bytes: number;
                                /** @enum {string} */
                                content_type: "image/png" | "image/jpeg" | "image/webp";
                                /** @description The image as a data: URL, to show it */
                                data_url: string;
                                sha256: string;
                            } | null;
                            /** @description The name the pages show: display_name, or else the tenant's name */
                            page_name: string;
                            updated_at: string | null;
                            updated_by: string | null;
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
            };
        };
        trace?: never;
    };
    "/v1/connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Connections of this tenant, newest first
         * @description Admins see every connection of the tenant: shared ones and those end users connected through connect sessions. Other members see the connections they made themselves. Filter by `end_user_id`, `provider`, `status` and `env`; page with `next_cursor`.
         */
        get: {
            parameters: {
                query?: {
                    cursor?: string;
                    /** @description Your own id for one of your users (1–255 characters, no control characters); the broker treats it as opaque */
                    end_user_id?: string;
                    env?: "test" | "live";
                    limit?: number;
                    provider?: string;
                    status?: "active" | "expired" | "revoked";
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
                            data: components["schemas"]["Connection"][];
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
    "/v1/connections/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One connection */
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
                /** @description A connected account. Never carries a token. */
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
                            connected_account_id: string;
                            /** @description The per-connection values its API address is filled with (an Atlassian cloud id with its site name, a Salesforce instance, a Zendesk subdomain); empty when the provider has none */
                            connection_values: {
                                [key: string]: {
                                    display?: string;
                                    value: string;
                                };
                            };
                            /** Format: date-time */
                            created_at: string;
                            /** @description The upstream account's identity, e.g. a GitHub login */
                            display_name: string;
                            /** @description The end user who owns this connection (connected through a connect session); null for a shared connection made by an operator */
                            end_user_id: string | null;
                            /** @enum {string} */
                            env: "test" | "live";
                            /** @description A name to tell several accounts of one provider apart */
                            label: string | null;
                            /** @description Last tool call with this connection; updated at most once a minute */
                            last_used_at: string | null;
                            provider: string;
                            /** @description Why an expired connection needs a reconnect: `origin_changed` (the provider's token endpoint or API base URL moved since connect; the tokens are never sent to the new address), `refresh_interrupted` (a token refresh was cut short, e.g. by a crash, and the provider no longer accepts the old refresh token), `refresh_refused` (the provider refused the refresh token). Null while active, and for connections that expired before the broker recorded reasons. */
                            reconnect_reason: ("origin_changed" | "refresh_interrupted" | "refresh_refused") | null;
                            revoked_at: string | null;
                            scopes: string[];
                            /**
                             * @description `expired`: the account must be connected again (`reconnect_reason` says why when known); `revoked`: revoked here
                             * @enum {string}
                             */
                            status: "active" | "expired" | "revoked";
                            /** @description Outcome of the best-effort revocation at the provider */
                            upstream_revocation: ("revoked" | "failed" | "unsupported") | null;
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
        /**
         * Revoke a connection
         * @description Revokes upstream where the provider supports it (best effort, recorded), deletes the stored tokens and emits `connection.revoked`.
         */
        delete: {
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
                /** @description A connected account. Never carries a token. */
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
                            connected_account_id: string;
                            /** @description The per-connection values its API address is filled with (an Atlassian cloud id with its site name, a Salesforce instance, a Zendesk subdomain); empty when the provider has none */
                            connection_values: {
                                [key: string]: {
                                    display?: string;
                                    value: string;
                                };
                            };
                            /** Format: date-time */
                            created_at: string;
                            /** @description The upstream account's identity, e.g. a GitHub login */
                            display_name: string;
                            /** @description The end user who owns this connection (connected through a connect session); null for a shared connection made by an operator */
                            end_user_id: string | null;
                            /** @enum {string} */
                            env: "test" | "live";
                            /** @description A name to tell several accounts of one provider apart */
                            label: string | null;
                            /** @description Last tool call with this connection; updated at most once a minute */
                            last_used_at: string | null;
                            provider: string;
                            /** @description Why an expired connection needs a reconnect: `origin_changed` (the provider's token endpoint or API base URL moved since connect; the tokens are never sent to the new address), `refresh_interrupted` (a token refresh was cut short, e.g. by a crash, and the provider no longer accepts the old refresh token), `refresh_refused` (the provider refused the refresh token). Null while active, and for connections that expired before the broker recorded reasons. */
                            reconnect_reason: ("origin_changed" | "refresh_interrupted" | "refresh_refused") | null;
                            revoked_at: string | null;
                            scopes: string[];
                            /**
                             * @description `expired`: the account must be connected again (`reconnect_reason` says why when known); `revoked`: revoked here
                             * @enum {string}
                             */
                            status: "active" | "expired" | "revoked";
                            /** @description Outcome of the best-effort revocation at the provider */
                            upstream_revocation: ("revoked" | "failed" | "unsupported") | null;
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
        options?: never;
        head?: never;
        /**
         * Set a connection's label
         * @description Admins may label any connection of the tenant, other members the ones they made.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description A UUID */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The new label; null removes it */
                        label: string | null;
                    };
                };
            };
            responses: {
                /** @description A connected account. Never carries a token. */
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
                            connected_account_id: string;
                            /** @description The per-connection values its API address is filled with (an Atlassian cloud id with its site name, a Salesforce instance, a Zendesk subdomain); empty when the provider has none */
                            connection_values: {
                                [key: string]: {
                                    display?: string;
                                    value: string;
                                };
                            };
                            /** Format: date-time */
                            created_at: string;
                            /** @description The upstream account's identity, e.g. a GitHub login */
                            display_name: string;
                            /** @description The end user who owns this connection (connected through a connect session); null for a shared connection made by an operator */
                            end_user_id: string | null;
                            /** @enum {string} */
                            env: "test" | "live";
                            /** @description A name to tell several accounts of one provider apart */
                            label: string | null;
                            /** @description Last tool call with this connection; updated at most once a minute */
                            last_used_at: string | null;
                            provider: string;
                            /** @description Why an expired connection needs a reconnect: `origin_changed` (the provider's token endpoint or API base URL moved since connect; the tokens are never sent to the new address), `refresh_interrupted` (a token refresh was cut short, e.g. by a crash, and the provider no longer accepts the old refresh token), `refresh_refused` (the provider refused the refresh token). Null while active, and for connections that expired before the broker recorded reasons. */
                            reconnect_reason: ("origin_changed" | "refresh_interrupted" | "refresh_refused") | null;
                            revoked_at: string | null;
                            scopes: string[];
                            /**
                             * @description `expired`: the account must be connected again (`reconnect_reason` says why when known); `revoked`: revoked here
                             * @enum {string}
                             */
                            status: "active" | "expired" | "revoked";
                            /** @description Outcome of the best-effort revocation at the provider */
                            upstream_revocation: ("revoked" | "failed" | "unsupported") | null;
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
        trace?: never;
    };
    "/v1/connections/oauth/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start connecting an account through OAuth (PKCE S256)
         * @description Returns the provider's authorize URL. `state` is single-use and expires after 10 minutes.
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
                        /** @description The provider's per-connection values a person gives (its declaration's `connection_values` with source `connect_input`, e.g. a Zendesk `subdomain`): each is one DNS label matching the declared pattern. Required when the provider asks for any; 422 invalid_request names each missing or refused one. */
                        connection_values?: {
                            [key: string]: string;
                        };
                        /** @enum {string} */
                        env?: "test" | "live";
                        /** @description Provider id: scm, chat or tracker */
                        provider: string;
                        /** @description Where the browser goes after the callback, with ?connected_account_id=… */
                        redirect_after?: string;
                        scopes?: string[];
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
                            authorize_url: string;
                            /** Format: date-time */
                            expires_at: string;
                            state: string;
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
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/console/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How the console signs operators in */
        get: {
            parameters: {
                query?: never;
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
                            /** @description The console's public client id (BROKER_CONSOLE_CLIENT_ID) */
                            client_id: string | null;
                            default_subject: string | null;
                            /** @description Sign in by subject with the embedded development issuer (active outside production while no BROKER_OIDC_ISSUER is set) */
                            development: boolean;
                            /** @description The OpenID Connect issuer operators sign in with */
                            issuer: string;
                        };
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
    "/v1/console/dev-session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Development only: an operator token for a subject
         * @description Exists only while the embedded development issuer is what the console signs in with (never in production, never with BROKER_OIDC_ISSUER set) and only for a browser on this machine (loopback connection, no proxy, a loopback or public-URL Host and Origin); anywhere else it answers 404 like any unknown route.
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
                        subject: string;
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
                            access_token: string;
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
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List control keys (never the keys themselves) */
        get: {
            parameters: {
                query?: never;
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
                            data: components["schemas"]["ControlKey"][];
                        };
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
        /** Create a control key; the key is returned once */
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
                        /** @enum {string} */
                        env: "test" | "live";
                        name?: string;
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
                            /** Format: date-time */
                            created_at: string;
                            /** @enum {string} */
                            env: "test" | "live";
                            /**
                             * Format: uuid
                             * @description A UUID
                             */
                            id: string;
                            /** @description The key itself; shown only in this response */
                            key: string;
                            /** @description Updated at most once a minute */
                            last_used_at: string | null;
                            name: string;
                            /** @description The first characters of the key, for recognising it */
                            prefix: string;
                            revoked_at: string | null;
                            status: "active" | "revoked";
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
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a control key */
        delete: {
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
                            /** Format: date-time */
                            created_at: string;
                            /** @enum {string} */
                            env: "test" | "live";
                            /**
                             * Format: uuid
                             * @description A UUID
                             */
                            id: string;
                            /** @description Updated at most once a minute */
                            last_used_at: string | null;
                            name: string;
                            /** @description The first characters of the key, for recognising it */
                            prefix: string;
                            revoked_at: string | null;
                            status: "active" | "revoked";
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
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The signed-in operator and the tenants they are a member of
         * @description Takes an operator token without X-Broker-Tenant-Id. Control keys and broker JWTs get 401.
         */
        get: {
            parameters: {
                query?: never;
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
                            issuer: string;
                            subject: string;
                            tenants: {
                                name: string;
                                /** @enum {string} */
                                role: "admin" | "viewer";
                                tenant_id: string;
                            }[];
                        };
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
    "/v1/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's members, oldest first */
        get: {
            parameters: {
                query?: never;
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
                                /** Format: date-time */
                                created_at: string;
                                display_name: string | null;
                                email: string | null;
                                groups: string[];
                                /**
                                 * Format: uuid
                                 * @description A UUID
                                 */
                                id: string;
                                issuer: string;
                                /** @enum {string} */
                                role: "admin" | "viewer";
                                slack_user_id: string | null;
                                subject: string;
                            }[];
                        };
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
    "/v1/members/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change what approvals know of a member: email and Slack identity (the member themselves), display name and groups (admins)
         * @description Only the fields sent change; null clears one. `email` and `slack_user_id` reach the member and act as them (approval emails, Slack buttons), so only the member themselves sets them: 403 forbidden for anyone else, admins included. `display_name` and `groups` need the admin role (403 forbidden). 409 conflict when another member already has the Slack identity; 404 for another tenant's member.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description A UUID */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        display_name?: string | null;
                        email?: string | null;
                        groups?: string[] | null;
                        slack_user_id?: string | null;
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
                            /** Format: date-time */
                            created_at: string;
                            display_name: string | null;
                            email: string | null;
                            groups: string[];
                            /**
                             * Format: uuid
                             * @description A UUID
                             */
                            id: string;
                            issuer: string;
                            /** @enum {string} */
                            role: "admin" | "viewer";
                            slack_user_id: string | null;
                            subject: string;
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
            };
        };
        trace?: never;
    };
    "/v1/oauth-clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tenant's own OAuth apps, every provider at once
         * @description One entry per provider and env that has an app now (removed and replaced ones are left out), ordered by provider then env; `env` narrows to one env. A provider without an entry uses the broker-wide client (a custom provider then cannot connect).
         */
        get: {
            parameters: {
                query?: {
                    env?: "test" | "live";
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
                            data: components["schemas"]["OAuthApp"][];
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
    "/v1/ops/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Health with the configuration details (database kind, vault, providers) that production keeps from /health */
        get: {
            parameters: {
                query?: never;
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
                            /** @description The store and whether it answers now */
                            database: {
                                kind?: "sqlite" | "postgres";
                                /** @description unreachable when `select 1` fails or takes longer than 1500 ms; /health then answers 503 */
                                status: "ok" | "unreachable";
                            };
                            environment?: string;
                            providers?: {
                                id: string;
                                missing?: string[];
                                ready: boolean;
                            }[];
                            public_openapi?: boolean;
                            service: string;
                            status: "ok" | "degraded";
                            vault?: {
                                reason?: string;
                                status: string;
                            };
                            version: string;
                        };
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
    "/v1/policy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's current policy for one env, or an earlier version */
        get: {
            parameters: {
                query?: {
                    env?: "test" | "live";
                    /** @description An earlier version (see /v1/policy/versions) */
                    version?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Rules are tried in order; the first match decides. With no match, low-risk tools are allowed and high-risk tools require approval. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            env: "test" | "live";
                            rules: {
                                /** @description Agent app ids; default all */
                                agent_apps?: string[];
                                /** @description Only on require_approval rules: who decides, whether they may edit, expiry, reminders and channels */
                                approval?: {
                                    /** @description Who must approve. One deny ends the approval. Default: one admin. */
                                    approvers?: {
                                        count: number;
                                        of: "admins" | {
                                            /** @description A group of members (PATCH /v1/members/{id} `groups`) */
                                            group: string;
                                        };
                                    } | {
                                        all_of: string[];
                                    } | "end_user";
                                    /** @description Where the approval is sent besides the console. Default: the tenant's channels (PUT /v1/approval-settings). */
                                    channels?: ("slack" | "email")[];
                                    /**
                                     * @description Whether approvers may change the arguments before approving. Default allowed.
                                     * @enum {string}
                                     */
                                    edits?: "allowed" | "forbidden";
                                    /** @description Send a reminder on the same channels this long before expiry */
                                    remind_before_seconds?: number;
                                    /** @description Whether the member who created the calling agent app may approve its calls. Default true. */
                                    requester_may_approve?: boolean;
                                    /** @description How long the approval may wait and then be used. Default BROKER_APPROVAL_TTL_SECONDS. */
                                    ttl_seconds?: number;
                                };
                                /** @description All must hold */
                                conditions?: {
                                    equals?: unknown;
                                    one_of?: unknown[];
                                    /** @description JSON pointer into `arguments`, e.g. /repo */
                                    pointer: string;
                                    prefix?: string;
                                    /** @description RE2 regular expression (https://github.com/google/re2/wiki/Syntax; no backreferences or lookaround), searched for in string values, in time linear in the value. A pattern may compile to at most 1000 RE2 instructions, all patterns of a document to 5000. On a string longer than 10000 characters the condition is undecided, and an undecided rule can only make the decision stricter: the result is the most restrictive (deny, then require_approval, then allow) of the outcomes the undecided rules leave possible. */
                                    regex?: string;
                                }[];
                                /** @description For the tenant's own people: never shown to callers */
                                description?: string;
                                /** @enum {string} */
                                effect: "allow" | "deny" | "require_approval";
                                /** @description Which end users the rule is for: a list of end user ids (matches only calls acting for one of them, compared exactly), "any" (calls acting for some end user) or "none" (calls acting for no end user). Default: every call, with or without an end user. */
                                end_users?: string[] | ("any" | "none");
                                id: string;
                                /** @description Only on deny rules: what the caller is told when this rule refuses a call, in the message and `details.reason` of 403 policy_denied (over MCP, in the text the model reads) */
                                reason?: string;
                                /** @description Tool names or globs like scm.*; default all tools */
                                tools?: string[];
                            }[];
                            updated_at: string | null;
                            updated_by: string | null;
                            /** @description 0 until the first PUT; each PUT adds one */
                            version: number;
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
            };
        };
        /**
         * Replace the policy for one env (a new version)
         * @description Unknown fields, regexes RE2 does not accept (backreferences, lookaround, over the size limits), unknown tools, duplicate rule ids → 422 `unprocessable` with the JSON path of the fault in error.details.fields.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        env?: "test" | "live";
                        rules: {
                            /** @description Agent app ids; default all */
                            agent_apps?: string[];
                            /** @description Only on require_approval rules: who decides, whether they may edit, expiry, reminders and channels */
                            approval?: {
                                /** @description Who must approve. One deny ends the approval. Default: one admin. */
                                approvers?: {
                                    count: number;
                                    of: "admins" | {
                                        /** @description A group of members (PATCH /v1/members/{id} `groups`) */
                                        group: string;
                                    };
                                } | {
                                    all_of: string[];
                                } | "end_user";
                                /** @description Where the approval is sent besides the console. Default: the tenant's channels (PUT /v1/approval-settings). */
                                channels?: ("slack" | "email")[];
                                /**
                                 * @description Whether approvers may change the arguments before approving. Default allowed.
                                 * @enum {string}
                                 */
                                edits?: "allowed" | "forbidden";
                                /** @description Send a reminder on the same channels this long before expiry */
                                remind_before_seconds?: number;
                                /** @description Whether the member who created the calling agent app may approve its calls. Default true. */
                                requester_may_approve?: boolean;
                                /** @description How long the approval may wait and then be used. Default BROKER_APPROVAL_TTL_SECONDS. */
                                ttl_seconds?: number;
                            };
                            /** @description All must hold */
                            conditions?: {
                                equals?: unknown;
                                one_of?: unknown[];
                                /** @description JSON pointer into `arguments`, e.g. /repo */
                                pointer: string;
                                prefix?: string;
                                /** @description RE2 regular expression (https://github.com/google/re2/wiki/Syntax; no backreferences or lookaround), searched for in string values, in time linear in the value. A pattern may compile to at most 1000 RE2 instructions, all patterns of a document to 5000. On a string longer than 10000 characters the condition is undecided, and an undecided rule can only make the decision stricter: the result is the most restrictive (deny, then require_approval, then allow) of the outcomes the undecided rules leave possible. */
                                regex?: string;
                            }[];
                            /** @description For the tenant's own people: never shown to callers */
                            description?: string;
                            /** @enum {string} */
                            effect: "allow" | "deny" | "require_approval";
                            /** @description Which end users the rule is for: a list of end user ids (matches only calls acting for one of them, compared exactly), "any" (calls acting for some end user) or "none" (calls acting for no end user). Default: every call, with or without an end user. */
                            end_users?: string[] | ("any" | "none");
                            id: string;
                            /** @description Only on deny rules: what the caller is told when this rule refuses a call, in the message and `details.reason` of 403 policy_denied (over MCP, in the text the model reads) */
                            reason?: string;
                            /** @description Tool names or globs like scm.*; default all tools */
                            tools?: string[];
                        }[];
                    };
                };
            };
            responses: {
                /** @description Rules are tried in order; the first match decides. With no match, low-risk tools are allowed and high-risk tools require approval. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            env: "test" | "live";
                            rules: {
                                /** @description Agent app ids; default all */
                                agent_apps?: string[];
                                /** @description Only on require_approval rules: who decides, whether they may edit, expiry, reminders and channels */
                                approval?: {
                                    /** @description Who must approve. One deny ends the approval. Default: one admin. */
                                    approvers?: {
                                        count: number;
                                        of: "admins" | {
                                            /** @description A group of members (PATCH /v1/members/{id} `groups`) */
                                            group: string;
                                        };
                                    } | {
                                        all_of: string[];
                                    } | "end_user";
                                    /** @description Where the approval is sent besides the console. Default: the tenant's channels (PUT /v1/approval-settings). */
                                    channels?: ("slack" | "email")[];
                                    /**
                                     * @description Whether approvers may change the arguments before approving. Default allowed.
                                     * @enum {string}
                                     */
                                    edits?: "allowed" | "forbidden";
                                    /** @description Send a reminder on the same channels this long before expiry */
                                    remind_before_seconds?: number;
                                    /** @description Whether the member who created the calling agent app may approve its calls. Default true. */
                                    requester_may_approve?: boolean;
                                    /** @description How long the approval may wait and then be used. Default BROKER_APPROVAL_TTL_SECONDS. */
                                    ttl_seconds?: number;
                                };
                                /** @description All must hold */
                                conditions?: {
                                    equals?: unknown;
                                    one_of?: unknown[];
                                    /** @description JSON pointer into `arguments`, e.g. /repo */
                                    pointer: string;
                                    prefix?: string;
                                    /** @description RE2 regular expression (https://github.com/google/re2/wiki/Syntax; no backreferences or lookaround), searched for in string values, in time linear in the value. A pattern may compile to at most 1000 RE2 instructions, all patterns of a document to 5000. On a string longer than 10000 characters the condition is undecided, and an undecided rule can only make the decision stricter: the result is the most restrictive (deny, then require_approval, then allow) of the outcomes the undecided rules leave possible. */
                                    regex?: string;
                                }[];
                                /** @description For the tenant's own people: never shown to callers */
                                description?: string;
                                /** @enum {string} */
                                effect: "allow" | "deny" | "require_approval";
                                /** @description Which end users the rule is for: a list of end user ids (matches only calls acting for one of them, compared exactly), "any" (calls acting for some end user) or "none" (calls acting for no end user). Default: every call, with or without an end user. */
                                end_users?: string[] | ("any" | "none");
                                id: string;
                                /** @description Only on deny rules: what the caller is told when this rule refuses a call, in the message and `details.reason` of 403 policy_denied (over MCP, in the text the model reads) */
                                reason?: string;
                                /** @description Tool names or globs like scm.*; default all tools */
                                tools?: string[];
                            }[];
                            updated_at: string | null;
                            updated_by: string | null;
                            /** @description 0 until the first PUT; each PUT adds one */
                            version: number;
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
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/policy/compare": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * What a draft policy would change: the same calls decided by the policy in force and by the draft
         * @description Nothing is saved or executed; viewers may compare. `rules` is checked as PUT /v1/policy checks it (422 `unprocessable` with the JSON path in error.details.fields). Without `calls` the broker picks representative ones (`representative: true`) among the tools some rule of either document reaches (any other tool keeps its risk default under both): for each rule naming end users, agent apps or conditions, a call of each tool it covers that it would match (arguments built from its equals, one_of and prefix conditions; regex conditions cannot be built), then each tool for no end user and for an end user no rule names (`example-end-user`), sorted by tool. At most 1000 calls; `truncated` says the cap left some out. A call naming no tool of the env → 422 with `/calls/{i}/tool_name`. `changed` is true when the effect differs.
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
                        calls?: {
                            /**
                             * Format: uuid
                             * @description A UUID
                             */
                            agent_app_id?: string;
                            arguments: {
                                [key: string]: unknown;
                            };
                            /** @description Your own id for one of your users (1–255 characters, no control characters); the broker treats it as opaque */
                            end_user_id?: string;
                            tool_name: string;
                        }[];
                        /** @enum {string} */
                        env?: "test" | "live";
                        rules: {
                            /** @description Agent app ids; default all */
                            agent_apps?: string[];
                            /** @description Only on require_approval rules: who decides, whether they may edit, expiry, reminders and channels */
                            approval?: {
                                /** @description Who must approve. One deny ends the approval. Default: one admin. */
                                approvers?: {
                                    count: number;
                                    of: "admins" | {
                                        /** @description A group of members (PATCH /v1/members/{id} `groups`) */
                                        group: string;
                                    };
                                } | {
                                    all_of: string[];
                                } | "end_user";
                                /** @description Where the approval is sent besides the console. Default: the tenant's channels (PUT /v1/approval-settings). */
                                channels?: ("slack" | "email")[];
                                /**
                                 * @description Whether approvers may change the arguments before approving. Default allowed.
                                 * @enum {string}
                                 */
                                edits?: "allowed" | "forbidden";
                                /** @description Send a reminder on the same channels this long before expiry */
                                remind_before_seconds?: number;
                                /** @description Whether the member who created the calling agent app may approve its calls. Default true. */
                                requester_may_approve?: boolean;
                                /** @description How long the approval may wait and then be used. Default BROKER_APPROVAL_TTL_SECONDS. */
                                ttl_seconds?: number;
                            };
                            /** @description All must hold */
                            conditions?: {
                                equals?: unknown;
                                one_of?: unknown[];
                                /** @description JSON pointer into `arguments`, e.g. /repo */
                                pointer: string;
                                prefix?: string;
                                /** @description RE2 regular expression (https://github.com/google/re2/wiki/Syntax; no backreferences or lookaround), searched for in string values, in time linear in the value. A pattern may compile to at most 1000 RE2 instructions, all patterns of a document to 5000. On a string longer than 10000 characters the condition is undecided, and an undecided rule can only make the decision stricter: the result is the most restrictive (deny, then require_approval, then allow) of the outcomes the undecided rules leave possible. */
                                regex?: string;
                            }[];
                            /** @description For the tenant's own people: never shown to callers */
                            description?: string;
                            /** @enum {string} */
                            effect: "allow" | "deny" | "require_approval";
                            /** @description Which end users the rule is for: a list of end user ids (matches only calls acting for one of them, compared exactly), "any" (calls acting for some end user) or "none" (calls acting for no end user). Default: every call, with or without an end user. */
                            end_users?: string[] | ("any" | "none");
                            id: string;
                            /** @description Only on deny rules: what the caller is told when this rule refuses a call, in the message and `details.reason` of 403 policy_denied (over MCP, in the text the model reads) */
                            reason?: string;
                            /** @description Tool names or globs like scm.*; default all tools */
                            tools?: string[];
                        }[];
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
                            /** @description The version in force the draft was compared with (0: none saved) */
                            current_version: number;
                            /** @enum {string} */
                            env: "test" | "live";
                            /** @description Whether the broker chose the calls */
                            representative: boolean;
                            results: {
                                /** @description `agent_app_id` omitted: an agent app no rule names (decided as 00000000-0000-0000-0000-000000000000); `end_user_id` omitted: a call acting for no end user */
                                call: {
                                    /**
                                     * Format: uuid
                                     * @description A UUID
                                     */
                                    agent_app_id?: string;
                                    arguments: {
                                        [key: string]: unknown;
                                    };
                                    /** @description Your own id for one of your users (1–255 characters, no control characters); the broker treats it as opaque */
                                    end_user_id?: string;
                                    tool_name: string;
                                };
                                changed: boolean;
                                current: {
                                    /** @enum {string} */
                                    decision: "allow" | "deny" | "require_approval";
                                    /** @enum {string} */
                                    reason: "rule" | "default_low_risk" | "default_high_risk";
                                    rule_id: string | null;
                                };
                                draft: {
                                    /** @enum {string} */
                                    decision: "allow" | "deny" | "require_approval";
                                    /** @enum {string} */
                                    reason: "rule" | "default_low_risk" | "default_high_risk";
                                    rule_id: string | null;
                                };
                                /** @enum {string} */
                                risk: "low" | "high";
                            }[];
                            /** @description Whether representative calls were left out at the cap */
                            truncated: boolean;
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
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/policy/simulate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * What the policy would decide for a call, without executing anything
         * @description `end_user_id` is the end user the call would act for (as `end_user_id` in a broker JWT or an execute body); omit it for a call acting for no end user.
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
                        /**
                         * Format: uuid
                         * @description A UUID
                         */
                        agent_app_id: string;
                        arguments: {
                            [key: string]: unknown;
                        };
                        /** @description Your own id for one of your users (1–255 characters, no control characters); the broker treats it as opaque */
                        end_user_id?: string;
                        /** @enum {string} */
                        env: "test" | "live";
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
                            /** @enum {string} */
                            decision: "allow" | "deny" | "require_approval";
                            policy_version: number;
                            /** @enum {string} */
                            reason: "rule" | "default_low_risk" | "default_high_risk";
                            /** @enum {string} */
                            risk: "low" | "high";
                            /** @description The rule that decided, or null for the risk default */
                            rule_id: string | null;
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
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/policy/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Named starting points for a policy, built from the tools of one env
         * @description Read-only agent, Approve all writes, Deny destructive, Per-end-user limits: each an ordinary rule list that PUT /v1/policy accepts as it stands. `writes` and `destructive` are the catalogue's `side_effect` and `destructive` marks (GET /v1/tools); a provider whose every tool is chosen is named by its glob (`scm.*`). Nothing is saved.
         */
        get: {
            parameters: {
                query?: {
                    env?: "test" | "live";
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
                            data: components["schemas"]["PolicyTemplate"][];
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
    "/v1/policy/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The policy's versions for one env, newest first (the last 200) */
        get: {
            parameters: {
                query?: {
                    env?: "test" | "live";
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
                                /** Format: date-time */
                                created_at: string;
                                rule_count: number;
                                updated_by: string;
                                version: number;
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
    "/v1/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Built-in providers and the tenant's own */
        get: {
            parameters: {
                query?: never;
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
                            data: components["schemas"]["CatalogueProvider"][];
                        };
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
        /**
         * Declare a provider for this tenant
         * @description 422 invalid_declaration names the path of the fault (details.path), including an id that is a built-in provider's and a URL the broker will not call (in production: https only, no private or special-purpose addresses, checked again on every connection). 409 conflict: the tenant already has this id. 422 catalogue_limit_reached: the tenant already has 100 providers of its own (details.limit providers_per_tenant).
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
                        /** @description See GET /v1/catalogue/schema */
                        declaration: {
                            [key: string]: unknown;
                        };
                        /**
                         * @description The env it serves (default both)
                         * @enum {string}
                         */
                        env?: "test" | "live" | "both";
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
                            /** @description Other ids that name it (`github` for `scm`): accepted wherever a provider or tool is named */
                            aliases: string[];
                            auth_modes: ("oauth2" | "api_key")[];
                            created_at: string | null;
                            /** @description The declaration (a built-in provider's too: what its vendor does beyond it is code) */
                            declaration: {
                                [key: string]: unknown;
                            } | null;
                            /** @description Present when the stored declaration no longer passes the schema (it was stored before a check existed): the provider and its tools are left out of what callers see (GET /v1/tools, execute, MCP) until a PATCH repairs it or it is deleted */
                            declaration_problem?: {
                                message: string;
                                path: string;
                            };
                            display_name: string;
                            /**
                             * @description The env it serves (default both)
                             * @enum {string}
                             */
                            env: "test" | "live" | "both";
                            id: string;
                            /** @enum {string} */
                            source: "built_in" | "custom";
                            updated_at: string | null;
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
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/providers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A provider: built in or the tenant's own */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description A provider id */
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
                            /** @description Other ids that name it (`github` for `scm`): accepted wherever a provider or tool is named */
                            aliases: string[];
                            auth_modes: ("oauth2" | "api_key")[];
                            created_at: string | null;
                            /** @description The declaration (a built-in provider's too: what its vendor does beyond it is code) */
                            declaration: {
                                [key: string]: unknown;
                            } | null;
                            /** @description Present when the stored declaration no longer passes the schema (it was stored before a check existed): the provider and its tools are left out of what callers see (GET /v1/tools, execute, MCP) until a PATCH repairs it or it is deleted */
                            declaration_problem?: {
                                message: string;
                                path: string;
                            };
                            display_name: string;
                            /**
                             * @description The env it serves (default both)
                             * @enum {string}
                             */
                            env: "test" | "live" | "both";
                            id: string;
                            /** @enum {string} */
                            source: "built_in" | "custom";
                            updated_at: string | null;
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
            };
        };
        put?: never;
        post?: never;
        /**
         * Remove a provider and its tools
         * @description Its connections stay (revoke them with DELETE /v1/connections/{id}) but no tool uses them any more. 403 forbidden for a built-in provider.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description A provider id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
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
            };
        };
        options?: never;
        head?: never;
        /**
         * Change a provider (JSON Merge Patch of its declaration)
         * @description 403 forbidden for a built-in provider.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description A provider id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description A JSON Merge Patch (RFC 7396) of the declaration */
                        declaration?: {
                            [key: string]: unknown;
                        };
                        /**
                         * @description The env it serves (default both)
                         * @enum {string}
                         */
                        env?: "test" | "live" | "both";
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
                            /** @description Other ids that name it (`github` for `scm`): accepted wherever a provider or tool is named */
                            aliases: string[];
                            auth_modes: ("oauth2" | "api_key")[];
                            created_at: string | null;
                            /** @description The declaration (a built-in provider's too: what its vendor does beyond it is code) */
                            declaration: {
                                [key: string]: unknown;
                            } | null;
                            /** @description Present when the stored declaration no longer passes the schema (it was stored before a check existed): the provider and its tools are left out of what callers see (GET /v1/tools, execute, MCP) until a PATCH repairs it or it is deleted */
                            declaration_problem?: {
                                message: string;
                                path: string;
                            };
                            display_name: string;
                            /**
                             * @description The env it serves (default both)
                             * @enum {string}
                             */
                            env: "test" | "live" | "both";
                            id: string;
                            /** @enum {string} */
                            source: "built_in" | "custom";
                            updated_at: string | null;
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
                /** @description the request is well-formed but cannot be processed */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/providers/{id}/oauth-client": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's own OAuth app for a provider (env test by default) */
        get: {
            parameters: {
                query?: {
                    env?: "test" | "live";
                };
                header?: never;
                path: {
                    /** @description A provider id, e.g. scm (GET /v1/tools lists them) */
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
                            client_id: string;
                            /** @description The last four characters of the client secret (null when it is shorter than 16 characters); the secret itself is never returned */
                            client_secret_hint: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** @enum {string} */
                            env: "test" | "live";
                            provider: string;
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
                /** @description the request is well-formed but cannot be processed */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        /**
         * Use the tenant's own OAuth app for a provider
         * @description Connects of this tenant and env go through this client (its consent screen, its rate limits) instead of the broker-wide one. Another client_id replaces it and leaves existing connections on the client that issued them, which also refreshes and revokes their tokens; the same client_id with a new secret rotates the secret for those connections too. The provider's redirect URI to register is `{BROKER_PUBLIC_URL}/v1/connections/oauth/callback`.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description A provider id, e.g. scm (GET /v1/tools lists them) */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description As registered at the provider */
                        client_id: string;
                        /** @description Stored encrypted; never returned */
                        client_secret: string;
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
                            client_id: string;
                            /** @description The last four characters of the client secret (null when it is shorter than 16 characters); the secret itself is never returned */
                            client_secret_hint: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** @enum {string} */
                            env: "test" | "live";
                            provider: string;
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
            };
        };
        post?: never;
        /**
         * Stop using the tenant's own OAuth app for new connects
         * @description New connects use the broker-wide client again; connections the app issued keep using it.
         */
        delete: {
            parameters: {
                query?: {
                    env?: "test" | "live";
                };
                header?: never;
                path: {
                    /** @description A provider id, e.g. scm (GET /v1/tools lists them) */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
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
                /** @description the request is well-formed but cannot be processed */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/providers/{id}/tools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A provider's built-in tools and the tenant's own
         * @description The id may be an alias (`github` for `scm`); the tools carry the canonical id. Sorted by name; `q`, `risk`, `side_effect`, `limit` and `cursor` work as on GET /v1/tools (without `limit` and `cursor`, every matching tool in one page).
         */
        get: {
            parameters: {
                query?: {
                    /** @description `next_cursor` of the page before */
                    cursor?: string;
                    /** @description Page size (1–200; 50 when only `cursor` is given). Without `limit` and `cursor` the whole match comes in one page */
                    limit?: number;
                    /** @description Words to search for, e.g. `create issue`: each must appear in the tool's name, MCP name, title or description (case-insensitive) */
                    q?: string;
                    /** @description Only tools of this risk */
                    risk?: "low" | "high";
                    /** @description Only reads, or only writes */
                    side_effect?: "read" | "write";
                };
                header?: never;
                path: {
                    /** @description A provider id */
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
                            data: components["schemas"]["CatalogueTool"][];
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
                /** @description not_found */
                404: {
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
        /**
         * Declare a tool under a provider (built-in or the tenant's own)
         * @description 422 invalid_declaration names the path of the fault. 409 conflict: the name is taken (by a built-in tool or one of the tenant's). 422 catalogue_limit_reached: the tenant already has 2000 tools of its own (details.limit tools_per_tenant).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description A provider id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description See GET /v1/catalogue/schema */
                        declaration: {
                            [key: string]: unknown;
                        };
                        /**
                         * @description The env it serves (default both)
                         * @enum {string}
                         */
                        env?: "test" | "live" | "both";
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
                            created_at: string | null;
                            /** @description The declaration (a built-in tool's too) */
                            declaration: {
                                [key: string]: unknown;
                            } | null;
                            /**
                             * @description The env it serves (default both)
                             * @enum {string}
                             */
                            env: "test" | "live" | "both";
                            /** @description The name MCP lists it under (see GET /v1/tools); null while the tool is left out of what callers see */
                            mcp_name: string | null;
                            name: string;
                            provider: string;
                            /** @enum {string} */
                            risk: "low" | "high";
                            /** @description The OAuth scopes it needs, when declared */
                            scopes: string[];
                            /** @enum {string} */
                            side_effect: "read" | "write";
                            /** @enum {string} */
                            source: "built_in" | "declared" | "openapi";
                            title: string | null;
                            updated_at: string | null;
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
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/providers/{id}/tools/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A tool: built in or the tenant's own */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    /** @description `<provider>.<operation>` */
                    name: string;
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
                            created_at: string | null;
                            /** @description The declaration (a built-in tool's too) */
                            declaration: {
                                [key: string]: unknown;
                            } | null;
                            /**
                             * @description The env it serves (default both)
                             * @enum {string}
                             */
                            env: "test" | "live" | "both";
                            /** @description The name MCP lists it under (see GET /v1/tools); null while the tool is left out of what callers see */
                            mcp_name: string | null;
                            name: string;
                            provider: string;
                            /** @enum {string} */
                            risk: "low" | "high";
                            /** @description The OAuth scopes it needs, when declared */
                            scopes: string[];
                            /** @enum {string} */
                            side_effect: "read" | "write";
                            /** @enum {string} */
                            source: "built_in" | "declared" | "openapi";
                            title: string | null;
                            updated_at: string | null;
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
            };
        };
        put?: never;
        post?: never;
        /** Remove one of the tenant's tools */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    /** @description `<provider>.<operation>` */
                    name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
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
            };
        };
        options?: never;
        head?: never;
        /**
         * Change a tool (JSON Merge Patch of its declaration), e.g. its risk
         * @description 403 forbidden for a built-in tool.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    /** @description `<provider>.<operation>` */
                    name: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description A JSON Merge Patch (RFC 7396) of the declaration */
                        declaration?: {
                            [key: string]: unknown;
                        };
                        /**
                         * @description The env it serves (default both)
                         * @enum {string}
                         */
                        env?: "test" | "live" | "both";
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
                            created_at: string | null;
                            /** @description The declaration (a built-in tool's too) */
                            declaration: {
                                [key: string]: unknown;
                            } | null;
                            /**
                             * @description The env it serves (default both)
                             * @enum {string}
                             */
                            env: "test" | "live" | "both";
                            /** @description The name MCP lists it under (see GET /v1/tools); null while the tool is left out of what callers see */
                            mcp_name: string | null;
                            name: string;
                            provider: string;
                            /** @enum {string} */
                            risk: "low" | "high";
                            /** @description The OAuth scopes it needs, when declared */
                            scopes: string[];
                            /** @enum {string} */
                            side_effect: "read" | "write";
                            /** @enum {string} */
                            source: "built_in" | "declared" | "openapi";
                            title: string | null;
                            updated_at: string | null;
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
                /** @description the request is well-formed but cannot be processed */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/providers/{id}/tools/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import tools from an OpenAPI 3.0/3.1 document
         * @description The document is at most 2 MiB (2,097,152 bytes) (413 payload_too_large past it, details.limit_bytes); local $refs are inlined where operations use them, remote ones never fetched. GET operations become read tools of low risk; POST, PUT, PATCH and DELETE become write tools of high risk (so they need approval by default; PATCH the tool to change it). Arguments come from the path, query and header parameters and a JSON request body (argument `body`). `dry_run=true` answers what would be created and stores nothing. All or nothing: 409 conflict when a name is taken, 422 invalid_declaration when the document cannot be imported. `skipped` lists operations left out and why. The document is parsed on a worker thread within budgets; past one, 422 invalid_declaration names it in details.limit and details.max: schema_nodes_per_tool (10000 schema objects in one tool's arguments, a shared $ref counted each time it is inlined), schema_nodes_per_import (200000), schema_bytes_per_import (16777216), schema_depth (64), import_time_ms (15000), import_memory_mb (256). 422 catalogue_limit_reached: more than 2000 tools from one import (tools_per_import) or past the tenant's 2000 tools (tools_per_tenant). 429 rate_limited: the tenant already has an import running on this instance (one at a time; Retry-After: 1).
         */
        post: {
            parameters: {
                query?: {
                    dry_run?: boolean;
                };
                header?: never;
                path: {
                    /** @description A provider id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The OpenAPI 3.0/3.1 document: JSON or YAML text, or a JSON object */
                        document: string | {
                            [key: string]: unknown;
                        };
                        /**
                         * @description The env it serves (default both)
                         * @enum {string}
                         */
                        env?: "test" | "live" | "both";
                        /** @description Import only these operations */
                        operation_ids?: string[];
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
                            data: components["schemas"]["CatalogueTool"][];
                            dry_run: boolean;
                            skipped: {
                                operation: string;
                                reason: string;
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
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/secrets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List secret items (metadata and hints only)
         * @description Oldest first. Filter by `provider`, `env` and `end_user_id`; without filters every item of the tenant, shared and end users' own.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Only the items stored for this end user (shared items are left out) */
                    end_user_id?: string;
                    env?: "test" | "live";
                    /** @description Only this provider's items */
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
                            data: components["schemas"]["SecretItem"][];
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
        /** Store an API key for an api_key provider */
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
                        /** @description The provider's per-connection values a person gives (its declaration's `connection_values` with source `connect_input`, e.g. a Zendesk `subdomain`): each is one DNS label matching the declared pattern. Required when the provider asks for any; 422 invalid_request names each missing or refused one. */
                        connection_values?: {
                            [key: string]: string;
                        };
                        /** @description Store the key for one of your end users: only calls acting for that end user may use it. Without it the item is shared. */
                        end_user_id?: string;
                        /** @enum {string} */
                        env: "test" | "live";
                        name: string;
                        provider: string;
                        /** @description The secret; stored encrypted, never returned */
                        value: string;
                    };
                };
            };
            responses: {
                /** @description Metadata only: the value is write-only. */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The per-connection values its API address is filled with (an Atlassian cloud id with its site name, a Salesforce instance, a Zendesk subdomain); empty when the provider has none */
                            connection_values: {
                                [key: string]: {
                                    display?: string;
                                    value: string;
                                };
                            };
                            /** Format: date-time */
                            created_at: string;
                            /** @description The end user who stored this key through a connect session; null for a shared item */
                            end_user_id: string | null;
                            /** @enum {string} */
                            env: "test" | "live";
                            label: string | null;
                            /** @description Last tool call with this item; updated at most once a minute */
                            last_used_at: string | null;
                            name: string;
                            provider: string;
                            /** @description `origin_changed`: the provider's API base URL moved since the key was stored; the key is never sent to the new address and must be stored again. Null while usable. */
                            reconnect_reason: "origin_changed" | null;
                            /**
                             * Format: uuid
                             * @description A UUID
                             */
                            secret_item_id: string;
                            /** @description The value's last four characters, to tell keys apart and see that a rotation took; null when the value is shorter than 16 characters, and for items stored before hints were kept */
                            value_hint: string | null;
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
    "/v1/secrets/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a secret item */
        delete: {
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
                            /** @description The per-connection values its API address is filled with (an Atlassian cloud id with its site name, a Salesforce instance, a Zendesk subdomain); empty when the provider has none */
                            connection_values: {
                                [key: string]: {
                                    display?: string;
                                    value: string;
                                };
                            };
                            /** Format: date-time */
                            created_at: string;
                            deleted: boolean;
                            /** @description The end user who stored this key through a connect session; null for a shared item */
                            end_user_id: string | null;
                            /** @enum {string} */
                            env: "test" | "live";
                            label: string | null;
                            /** @description Last tool call with this item; updated at most once a minute */
                            last_used_at: string | null;
                            name: string;
                            provider: string;
                            /** @description `origin_changed`: the provider's API base URL moved since the key was stored; the key is never sent to the new address and must be stored again. Null while usable. */
                            reconnect_reason: "origin_changed" | null;
                            /**
                             * Format: uuid
                             * @description A UUID
                             */
                            secret_item_id: string;
                            /** @description The value's last four characters, to tell keys apart and see that a rotation took; null when the value is shorter than 16 characters, and for items stored before hints were kept */
                            value_hint: string | null;
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
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/secrets/{id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace a secret item's value (rotate an API key)
         * @description The item keeps its id, name and owner, so agents naming its `secret_item_id` go on working; the next call sends the new value. The item is bound again to the provider's API address as it is now, so rotating also makes an item with `reconnect_reason: origin_changed` usable. Recorded as `secret_item.rotated`. 422 when the provider no longer takes API keys or the value is not in its format.
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
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The new secret; replaces the old one at once, stored encrypted, never returned */
                        value: string;
                    };
                };
            };
            responses: {
                /** @description Metadata only: the value is write-only. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The per-connection values its API address is filled with (an Atlassian cloud id with its site name, a Salesforce instance, a Zendesk subdomain); empty when the provider has none */
                            connection_values: {
                                [key: string]: {
                                    display?: string;
                                    value: string;
                                };
                            };
                            /** Format: date-time */
                            created_at: string;
                            /** @description The end user who stored this key through a connect session; null for a shared item */
                            end_user_id: string | null;
                            /** @enum {string} */
                            env: "test" | "live";
                            label: string | null;
                            /** @description Last tool call with this item; updated at most once a minute */
                            last_used_at: string | null;
                            name: string;
                            provider: string;
                            /** @description `origin_changed`: the provider's API base URL moved since the key was stored; the key is never sent to the new address and must be stored again. Null while usable. */
                            reconnect_reason: "origin_changed" | null;
                            /**
                             * Format: uuid
                             * @description A UUID
                             */
                            secret_item_id: string;
                            /** @description The value's last four characters, to tell keys apart and see that a rotation took; null when the value is shorter than 16 characters, and for items stored before hints were kept */
                            value_hint: string | null;
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
    "/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Executions by month, env, agent app and tool (and end user on request)
         * @description Counts executions that reached the upstream. Idempotent replays, denials, validation failures and OAuth connects are never counted. Default: the current month. `end_user_id` counts only executions that acted for that end user. `group_by=end_user` also groups by end user: each row then has `end_user_id` (null for executions that acted for no end user), and those rows come before the end users' rows.
         */
        get: {
            parameters: {
                query?: {
                    /** @description A UUID */
                    agent_app_id?: string;
                    /** @description Your own id for one of your users (1–255 characters, no control characters); the broker treats it as opaque */
                    end_user_id?: string;
                    env?: "test" | "live";
                    /** @description Calendar month in UTC, YYYY-MM */
                    from?: string;
                    /** @description end_user: one row per end user as well */
                    group_by?: "end_user";
                    /** @description Calendar month in UTC, YYYY-MM */
                    to?: string;
                    tool?: string;
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
                                /**
                                 * Format: uuid
                                 * @description A UUID
                                 */
                                agent_app_id: string;
                                /** @description With `group_by=end_user` only: the end user the executions acted for, null for none */
                                end_user_id?: string | null;
                                /** @enum {string} */
                                env: "test" | "live";
                                executions: number;
                                period: string;
                                tool_name: string;
                            }[];
                            from: string;
                            to: string;
                            total: number;
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
    "/v1/usage/daily": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Executions per UTC day of one month, per env (every day, zero-filled) */
        get: {
            parameters: {
                query?: {
                    env?: "test" | "live";
                    /** @description Calendar month in UTC, YYYY-MM */
                    month?: string;
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
                                /** Format: date */
                                day: string;
                                /** @enum {string} */
                                env: "test" | "live";
                                executions: number;
                            }[];
                            month: string;
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
    "/v1/usage/last-hour": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The last hour's tool calls and errors per UTC minute (60 minutes, zero-filled)
         * @description Counts recorded calls, not metered executions: every call the broker recorded an invocation for, whichever way it ended (succeeded, failed, refused as malformed, denied by policy, waiting for approval), by the minute it arrived. `errors` are the calls among them that ended `rejected`, `failed`, `unknown`; denials and approvals are decisions, not errors. Idempotent replays and requests refused before a call exists (authentication, rate limit, a body that is not a call) are not counted. The series ends with the current, unfinished minute. Cheap enough to poll: one range over the tenant's last hour of invocations.
         */
        get: {
            parameters: {
                query?: {
                    env?: "test" | "live";
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
                            /** @description Calls over the whole hour */
                            calls: number;
                            /** @description 60 minutes, oldest first */
                            data: {
                                calls: number;
                                errors: number;
                                /**
                                 * Format: date-time
                                 * @description Start of the minute, UTC, ISO 8601 (e.g. 2026-12-02T09:41:00.000Z)
                                 */
                                minute: string;
                            }[];
                            /** @enum {string} */
                            env?: "test" | "live";
                            /** @description Errors over the whole hour */
                            errors: number;
                            /**
                             * Format: date-time
                             * @description Start of the first minute (UTC), included
                             */
                            from: string;
                            /**
                             * Format: date-time
                             * @description End of the last minute (UTC), excluded
                             */
                            to: string;
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
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List webhook endpoints (secret prefix only) */
        get: {
            parameters: {
                query?: never;
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
                            data: components["schemas"]["WebhookEndpoint"][];
                        };
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
        /**
         * Register a webhook endpoint; its signing secret is returned once
         * @description The URL must be https in production and must not resolve to a private address (422 webhook_url_refused).
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
                        description?: string;
                        /** @description Event kinds to send; omitted or null means every kind */
                        events?: ("connection.created" | "connection.revoked" | "connection.expired" | "connection.required" | "approval.requested" | "approval.decided" | "approval.expired" | "billing.period_finalized" | "webhook.test")[] | null;
                        /** @description https URL (http allowed outside production) */
                        url: string;
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
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            disabled: {
                                /** Format: date-time */
                                at: string;
                                message: string;
                                /** @enum {string} */
                                reason: "operator" | "endpoint_gone" | "failing";
                            } | null;
                            events: ("connection.created" | "connection.revoked" | "connection.expired" | "connection.required" | "approval.requested" | "approval.decided" | "approval.expired" | "billing.period_finalized" | "webhook.test")[] | null;
                            /**
                             * Format: uuid
                             * @description A UUID
                             */
                            id: string;
                            last_delivery: {
                                /** Format: date-time */
                                attempted_at: string;
                                error: string | null;
                                http_status: number | null;
                                latency_ms: number;
                                /** @enum {string} */
                                outcome: "succeeded" | "failed";
                            } | null;
                            previous_secret_expires_at: string | null;
                            /** @description The signing secret, whsec_…; shown only in this response */
                            secret: string;
                            /** @description The first characters of the signing secret, for recognising it */
                            secret_prefix: string;
                            /** @enum {string} */
                            status: "enabled" | "disabled";
                            /** Format: date-time */
                            updated_at: string;
                            url: string;
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
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a webhook endpoint */
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
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            disabled: {
                                /** Format: date-time */
                                at: string;
                                message: string;
                                /** @enum {string} */
                                reason: "operator" | "endpoint_gone" | "failing";
                            } | null;
                            events: ("connection.created" | "connection.revoked" | "connection.expired" | "connection.required" | "approval.requested" | "approval.decided" | "approval.expired" | "billing.period_finalized" | "webhook.test")[] | null;
                            /**
                             * Format: uuid
                             * @description A UUID
                             */
                            id: string;
                            last_delivery: {
                                /** Format: date-time */
                                attempted_at: string;
                                error: string | null;
                                http_status: number | null;
                                latency_ms: number;
                                /** @enum {string} */
                                outcome: "succeeded" | "failed";
                            } | null;
                            previous_secret_expires_at: string | null;
                            /** @description The first characters of the signing secret, for recognising it */
                            secret_prefix: string;
                            /** @enum {string} */
                            status: "enabled" | "disabled";
                            /** Format: date-time */
                            updated_at: string;
                            url: string;
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
            };
        };
        put?: never;
        post?: never;
        /** Delete a webhook endpoint and its delivery log */
        delete: {
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
                            /** @enum {boolean} */
                            deleted: true;
                            id: string;
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
            };
        };
        options?: never;
        head?: never;
        /** Change a webhook endpoint's URL, events, description or enabled state */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description A UUID */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description?: string;
                        /** @description false disables the endpoint; true re-enables it and resets its failure streak */
                        enabled?: boolean;
                        events?: ("connection.created" | "connection.revoked" | "connection.expired" | "connection.required" | "approval.requested" | "approval.decided" | "approval.expired" | "billing.period_finalized" | "webhook.test")[] | null;
                        /** @description https URL (http allowed outside production) */
                        url?: string;
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
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            disabled: {
                                /** Format: date-time */
                                at: string;
                                message: string;
                                /** @enum {string} */
                                reason: "operator" | "endpoint_gone" | "failing";
                            } | null;
                            events: ("connection.created" | "connection.revoked" | "connection.expired" | "connection.required" | "approval.requested" | "approval.decided" | "approval.expired" | "billing.period_finalized" | "webhook.test")[] | null;
                            /**
                             * Format: uuid
                             * @description A UUID
                             */
                            id: string;
                            last_delivery: {
                                /** Format: date-time */
                                attempted_at: string;
                                error: string | null;
                                http_status: number | null;
                                latency_ms: number;
                                /** @enum {string} */
                                outcome: "succeeded" | "failed";
                            } | null;
                            previous_secret_expires_at: string | null;
                            /** @description The first characters of the signing secret, for recognising it */
                            secret_prefix: string;
                            /** @enum {string} */
                            status: "enabled" | "disabled";
                            /** Format: date-time */
                            updated_at: string;
                            url: string;
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
                /** @description the request is well-formed but cannot be processed */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The endpoint's delivery log, newest first, with every attempt
         * @description Viewers read `data.end_user_url` of an `approval.requested` payload as null: that link decides for the end user.
         */
        get: {
            parameters: {
                query?: {
                    cursor?: string;
                    limit?: number;
                    status?: "pending" | "succeeded" | "failed";
                };
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
                            data: components["schemas"]["WebhookDelivery"][];
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
                /** @description not_found */
                404: {
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
    "/v1/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace the signing secret; the new one is returned once and the old one keeps signing for 24 h */
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
                            /** Format: date-time */
                            created_at: string;
                            description: string;
                            disabled: {
                                /** Format: date-time */
                                at: string;
                                message: string;
                                /** @enum {string} */
                                reason: "operator" | "endpoint_gone" | "failing";
                            } | null;
                            events: ("connection.created" | "connection.revoked" | "connection.expired" | "connection.required" | "approval.requested" | "approval.decided" | "approval.expired" | "billing.period_finalized" | "webhook.test")[] | null;
                            /**
                             * Format: uuid
                             * @description A UUID
                             */
                            id: string;
                            last_delivery: {
                                /** Format: date-time */
                                attempted_at: string;
                                error: string | null;
                                http_status: number | null;
                                latency_ms: number;
                                /** @enum {string} */
                                outcome: "succeeded" | "failed";
                            } | null;
                            previous_secret_expires_at: string | null;
                            /** @description The signing secret, whsec_…; shown only in this response */
                            secret: string;
                            /** @description The first characters of the signing secret, for recognising it */
                            secret_prefix: string;
                            /** @enum {string} */
                            status: "enabled" | "disabled";
                            /** Format: date-time */
                            updated_at: string;
                            url: string;
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
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a webhook.test event to this endpoint now and report the attempt
         * @description Sent once, not retried, also to a disabled endpoint; `success` is false for a non-2xx answer, a network error or a timeout.
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
                            delivery_id: string;
                            error: string | null;
                            event_id: string;
                            http_status: number | null;
                            latency_ms: number;
                            /** @description true when the endpoint answered 2xx within the timeout */
                            success: boolean;
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
        AgentApp: {
            /** Format: date-time */
            created_at: string;
            disabled_at: string | null;
            /**
             * Format: uuid
             * @description A UUID
             */
            id: string;
            name: string;
            status: "active" | "disabled";
        };
        Approval: {
            account: {
                display_name: string;
                /**
                 * Format: uuid
                 * @description A UUID
                 */
                id: string;
                /** @enum {string} */
                kind: "connection" | "secret_item";
            } | null;
            agent_app: {
                /**
                 * Format: uuid
                 * @description A UUID
                 */
                id: string;
                name: string;
            };
            /**
             * Format: uuid
             * @description A UUID
             */
            agent_app_id: string;
            /**
             * Format: uuid
             * @description A UUID
             */
            approval_id: string;
            approvers: {
                /** @description Approving votes from eligible people on the current digest */
                approved: number;
                /** @description Approving votes needed on the current digest */
                needed: number;
                /** @description Whether the member who created the calling agent app may approve it */
                requester_may_approve: boolean;
                /** @description Who decides: `count` of the admins or of a group, every member listed, or the end user the call acts for */
                rule: {
                    count: number;
                    of: "admins" | {
                        group: string;
                    };
                } | {
                    all_of: string[];
                } | "end_user";
                /** @description Every vote, on any version of the call; only those on `digest` count */
                votes: {
                    /** Format: date-time */
                    decided_at: string;
                    /** @enum {string} */
                    decision: "approve" | "deny";
                    /** @description SHA-256 of the exact call: tenant, env, agent app, end user, tool, credential and arguments */
                    digest: string;
                    reason: string | null;
                    /** @enum {string} */
                    via: "api" | "console" | "slack" | "email" | "end_user_page";
                    voter: {
                        display_name: string | null;
                        /**
                         * Format: uuid
                         * @description A UUID
                         */
                        id: string;
                        /** @enum {string} */
                        kind: "member";
                    } | {
                        id: string;
                        /** @enum {string} */
                        kind: "end_user";
                    };
                }[];
                /** @description Eligible members without a vote on the current digest, while the approval is pending */
                waiting_for: {
                    display_name: string | null;
                    /**
                     * Format: uuid
                     * @description A UUID
                     */
                    member_id: string;
                }[];
            };
            /** @description The arguments the agent sent, credential-like fields redacted */
            arguments: {
                [key: string]: unknown;
            };
            connected_account_id: string | null;
            consumed_at: string | null;
            decision: {
                /** Format: date-time */
                decided_at: string;
                decided_by: string | null;
                /** @enum {string} */
                decision: "approve" | "deny";
                reason: string | null;
            } | null;
            /** @description How each channel (Slack, email) fared with the request, the reminder and the outcome */
            deliveries: {
                attempts: number;
                /** @enum {string} */
                channel: "slack" | "email";
                /** @description Why the last attempt failed, worded without secrets */
                last_error: string | null;
                /** @description When a pending delivery is tried next */
                next_attempt_at: string | null;
                /** @enum {string} */
                purpose: "request" | "reminder" | "outcome";
                sent_at: string | null;
                /**
                 * @description gave_up: the attempts were spent (or the approval was decided first); the approval stays in the console
                 * @enum {string}
                 */
                status: "pending" | "sent" | "gave_up";
            }[];
            /** @description SHA-256 of the exact call: tenant, env, agent app, end user, tool, credential and arguments */
            digest: string;
            /** @description The approver's edit: the call runs with these arguments if approved */
            edit: {
                /** @description The edited arguments, credential-like fields redacted */
                arguments: {
                    [key: string]: unknown;
                };
                changes: {
                    from?: unknown;
                    /** @description JSON pointer into the arguments */
                    path: string;
                    to?: unknown;
                }[];
                /** Format: date-time */
                edited_at: string;
                /** @description member:<member id> */
                edited_by: string;
            } | null;
            edits_allowed: boolean;
            /** @description The end user the call acts for, if any */
            end_user_id: string | null;
            /** @description The end user's hosted approval page, when the end user decides; shown to admins and control keys (the customer's backend), null for viewers */
            end_user_url: string | null;
            /** @enum {string} */
            env: "test" | "live";
            /** Format: date-time */
            expires_at: string;
            /**
             * Format: uuid
             * @description A UUID
             */
            invocation_id: string;
            provider: string;
            /** Format: date-time */
            requested_at: string;
            /** @description SHA-256 of the exact call: tenant, env, agent app, end user, tool, credential and arguments */
            requested_digest: string;
            /** @description The tool's risk; null for a tool no longer in the catalogue */
            risk: ("low" | "high") | null;
            rule_id: string | null;
            secret_item_id: string | null;
            /** @enum {string} */
            status: "pending" | "approved" | "denied" | "expired" | "consumed";
            tool_name: string;
            /** @description The operator asking: whether they may vote now, and their vote on the current digest (null for a control key) */
            you: {
                may_decide: boolean;
                vote: ("approve" | "deny") | null;
            } | null;
        };
        AuditEvent: {
            action: string;
            actor: {
                id: string;
                type: string;
            };
            agent_app_id: string | null;
            data: {
                [key: string]: unknown;
            };
            /** @description The customer's end user the action was for, if any */
            end_user_id: string | null;
            /** @description sha256 over this row and prev_hash */
            hash: string;
            /**
             * Format: uuid
             * @description A UUID
             */
            id: string;
            /** Format: date-time */
            occurred_at: string;
            outcome: string;
            prev_hash: string;
            seq: number;
            target: {
                id: string;
                type: string;
            } | null;
            tool_name: string | null;
        };
        BillingPlan: {
            /** @description ISO 4217, lower case */
            currency: string;
            description: string;
            id: string;
            /** @description Executions per month covered by the base fee */
            included_executions: number;
            /** @description Base fee per month, integer minor units (cents) of the currency */
            monthly_price: number;
            name: string;
            /** @description Price of each started block of 1,000 executions above the allowance, integer minor units (cents) of the currency */
            overage_price_per_1000: number;
        };
        /** @description The cheapest plan of the catalogue for the basis executions; ties keep the current plan */
        BillingPlanMatch: {
            /**
             * @description `actual`: an ended period's executions; `projected`: the current month's projection
             * @enum {string}
             */
            basis: "actual" | "projected";
            better_plan_available: boolean;
            current_plan: {
                /** @description Monthly cost for the basis executions, integer minor units (cents) of the currency */
                monthly_cost: number;
                name: string;
                plan_id: string;
            };
            /** @description Recommended minus current monthly cost: zero or negative (a saving), integer minor units (cents) of the currency */
            difference: number;
            /** @description Executions the plans were priced for */
            executions: number;
            recommended_plan: {
                /** @description Monthly cost for the basis executions, integer minor units (cents) of the currency */
                monthly_cost: number;
                name: string;
                plan_id: string;
            };
        };
        CatalogueProvider: {
            /** @description Other ids that name it (`github` for `scm`): accepted wherever a provider or tool is named */
            aliases: string[];
            auth_modes: ("oauth2" | "api_key")[];
            created_at: string | null;
            /** @description The declaration (a built-in provider's too: what its vendor does beyond it is code) */
            declaration: {
                [key: string]: unknown;
            } | null;
            /** @description Present when the stored declaration no longer passes the schema (it was stored before a check existed): the provider and its tools are left out of what callers see (GET /v1/tools, execute, MCP) until a PATCH repairs it or it is deleted */
            declaration_problem?: {
                message: string;
                path: string;
            };
            display_name: string;
            /**
             * @description The env it serves (default both)
             * @enum {string}
             */
            env: "test" | "live" | "both";
            id: string;
            /** @enum {string} */
            source: "built_in" | "custom";
            updated_at: string | null;
        };
        CatalogueTool: {
            created_at: string | null;
            /** @description The declaration (a built-in tool's too) */
            declaration: {
                [key: string]: unknown;
            } | null;
            /**
             * @description The env it serves (default both)
             * @enum {string}
             */
            env: "test" | "live" | "both";
            /** @description The name MCP lists it under (see GET /v1/tools); null while the tool is left out of what callers see */
            mcp_name: string | null;
            name: string;
            provider: string;
            /** @enum {string} */
            risk: "low" | "high";
            /** @description The OAuth scopes it needs, when declared */
            scopes: string[];
            /** @enum {string} */
            side_effect: "read" | "write";
            /** @enum {string} */
            source: "built_in" | "declared" | "openapi";
            title: string | null;
            updated_at: string | null;
        };
        /** @description A connected account. Never carries a token. */
        Connection: {
            /**
             * Format: uuid
             * @description A UUID
             */
            connected_account_id: string;
            /** @description The per-connection values its API address is filled with (an Atlassian cloud id with its site name, a Salesforce instance, a Zendesk subdomain); empty when the provider has none */
            connection_values: {
                [key: string]: {
                    display?: string;
                    value: string;
                };
            };
            /** Format: date-time */
            created_at: string;
            /** @description The upstream account's identity, e.g. a GitHub login */
            display_name: string;
            /** @description The end user who owns this connection (connected through a connect session); null for a shared connection made by an operator */
            end_user_id: string | null;
            /** @enum {string} */
            env: "test" | "live";
            /** @description A name to tell several accounts of one provider apart */
            label: string | null;
            /** @description Last tool call with this connection; updated at most once a minute */
            last_used_at: string | null;
            provider: string;
            /** @description Why an expired connection needs a reconnect: `origin_changed` (the provider's token endpoint or API base URL moved since connect; the tokens are never sent to the new address), `refresh_interrupted` (a token refresh was cut short, e.g. by a crash, and the provider no longer accepts the old refresh token), `refresh_refused` (the provider refused the refresh token). Null while active, and for connections that expired before the broker recorded reasons. */
            reconnect_reason: ("origin_changed" | "refresh_interrupted" | "refresh_refused") | null;
            revoked_at: string | null;
            scopes: string[];
            /**
             * @description `expired`: the account must be connected again (`reconnect_reason` says why when known); `revoked`: revoked here
             * @enum {string}
             */
            status: "active" | "expired" | "revoked";
            /** @description Outcome of the best-effort revocation at the provider */
            upstream_revocation: ("revoked" | "failed" | "unsupported") | null;
        };
        ControlKey: {
            /** Format: date-time */
            created_at: string;
            /** @enum {string} */
            env: "test" | "live";
            /**
             * Format: uuid
             * @description A UUID
             */
            id: string;
            /** @description Updated at most once a minute */
            last_used_at: string | null;
            name: string;
            /** @description The first characters of the key, for recognising it */
            prefix: string;
            revoked_at: string | null;
            status: "active" | "revoked";
        };
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
        OAuthApp: {
            client_id: string;
            /** @description The last four characters of the client secret (null when it is shorter than 16 characters); the secret itself is never returned */
            client_secret_hint: string | null;
            /** Format: date-time */
            created_at: string;
            /** @enum {string} */
            env: "test" | "live";
            provider: string;
        };
        PolicyTemplate: {
            description: string;
            id: string;
            name: string;
            rules: {
                /** @description Agent app ids; default all */
                agent_apps?: string[];
                /** @description Only on require_approval rules: who decides, whether they may edit, expiry, reminders and channels */
                approval?: {
                    /** @description Who must approve. One deny ends the approval. Default: one admin. */
                    approvers?: {
                        count: number;
                        of: "admins" | {
                            /** @description A group of members (PATCH /v1/members/{id} `groups`) */
                            group: string;
                        };
                    } | {
                        all_of: string[];
                    } | "end_user";
                    /** @description Where the approval is sent besides the console. Default: the tenant's channels (PUT /v1/approval-settings). */
                    channels?: ("slack" | "email")[];
                    /**
                     * @description Whether approvers may change the arguments before approving. Default allowed.
                     * @enum {string}
                     */
                    edits?: "allowed" | "forbidden";
                    /** @description Send a reminder on the same channels this long before expiry */
                    remind_before_seconds?: number;
                    /** @description Whether the member who created the calling agent app may approve its calls. Default true. */
                    requester_may_approve?: boolean;
                    /** @description How long the approval may wait and then be used. Default BROKER_APPROVAL_TTL_SECONDS. */
                    ttl_seconds?: number;
                };
                /** @description All must hold */
                conditions?: {
                    equals?: unknown;
                    one_of?: unknown[];
                    /** @description JSON pointer into `arguments`, e.g. /repo */
                    pointer: string;
                    prefix?: string;
                    /** @description RE2 regular expression (https://github.com/google/re2/wiki/Syntax; no backreferences or lookaround), searched for in string values, in time linear in the value. A pattern may compile to at most 1000 RE2 instructions, all patterns of a document to 5000. On a string longer than 10000 characters the condition is undecided, and an undecided rule can only make the decision stricter: the result is the most restrictive (deny, then require_approval, then allow) of the outcomes the undecided rules leave possible. */
                    regex?: string;
                }[];
                /** @description For the tenant's own people: never shown to callers */
                description?: string;
                /** @enum {string} */
                effect: "allow" | "deny" | "require_approval";
                /** @description Which end users the rule is for: a list of end user ids (matches only calls acting for one of them, compared exactly), "any" (calls acting for some end user) or "none" (calls acting for no end user). Default: every call, with or without an end user. */
                end_users?: string[] | ("any" | "none");
                id: string;
                /** @description Only on deny rules: what the caller is told when this rule refuses a call, in the message and `details.reason` of 403 policy_denied (over MCP, in the text the model reads) */
                reason?: string;
                /** @description Tool names or globs like scm.*; default all tools */
                tools?: string[];
            }[];
        };
        /** @description Metadata only: the value is write-only. */
        SecretItem: {
            /** @description The per-connection values its API address is filled with (an Atlassian cloud id with its site name, a Salesforce instance, a Zendesk subdomain); empty when the provider has none */
            connection_values: {
                [key: string]: {
                    display?: string;
                    value: string;
                };
            };
            /** Format: date-time */
            created_at: string;
            /** @description The end user who stored this key through a connect session; null for a shared item */
            end_user_id: string | null;
            /** @enum {string} */
            env: "test" | "live";
            label: string | null;
            /** @description Last tool call with this item; updated at most once a minute */
            last_used_at: string | null;
            name: string;
            provider: string;
            /** @description `origin_changed`: the provider's API base URL moved since the key was stored; the key is never sent to the new address and must be stored again. Null while usable. */
            reconnect_reason: "origin_changed" | null;
            /**
             * Format: uuid
             * @description A UUID
             */
            secret_item_id: string;
            /** @description The value's last four characters, to tell keys apart and see that a rotation took; null when the value is shorter than 16 characters, and for items stored before hints were kept */
            value_hint: string | null;
        };
        WebhookDelivery: {
            attempt_count: number;
            attempts: {
                attempt_number: number;
                /** Format: date-time */
                attempted_at: string;
                error: string | null;
                http_status: number | null;
                latency_ms: number;
                /** @enum {string} */
                outcome: "succeeded" | "retrying" | "failed";
                /** @enum {string} */
                triggered_by: "automatic" | "manual" | "test";
            }[];
            completed_at: string | null;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: uuid
             * @description A UUID
             */
            endpoint_id: string;
            /** @description The webhook-id header of every attempt of this delivery */
            event_id: string;
            /**
             * @description An event kind (see docs/webhooks.md for each payload)
             * @enum {string}
             */
            event_type: "connection.created" | "connection.revoked" | "connection.expired" | "connection.required" | "approval.requested" | "approval.decided" | "approval.expired" | "billing.period_finalized" | "webhook.test";
            /**
             * Format: uuid
             * @description A UUID
             */
            id: string;
            next_attempt_at: string | null;
            /** @description The body sent: {"type", "timestamp", "data"} */
            payload: {
                [key: string]: unknown;
            };
            /** @enum {string} */
            status: "pending" | "succeeded" | "failed";
        };
        WebhookEndpoint: {
            /** Format: date-time */
            created_at: string;
            description: string;
            disabled: {
                /** Format: date-time */
                at: string;
                message: string;
                /** @enum {string} */
                reason: "operator" | "endpoint_gone" | "failing";
            } | null;
            events: ("connection.created" | "connection.revoked" | "connection.expired" | "connection.required" | "approval.requested" | "approval.decided" | "approval.expired" | "billing.period_finalized" | "webhook.test")[] | null;
            /**
             * Format: uuid
             * @description A UUID
             */
            id: string;
            last_delivery: {
                /** Format: date-time */
                attempted_at: string;
                error: string | null;
                http_status: number | null;
                latency_ms: number;
                /** @enum {string} */
                outcome: "succeeded" | "failed";
            } | null;
            previous_secret_expires_at: string | null;
            /** @description The first characters of the signing secret, for recognising it */
            secret_prefix: string;
            /** @enum {string} */
            status: "enabled" | "disabled";
            /** Format: date-time */
            updated_at: string;
            url: string;
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
