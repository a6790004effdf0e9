// Generated from the API's OpenAPI document (/docs/json) by libs/client/src/generate.ts. Do not edit.

export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The process is up */
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
                            /** @enum {string} */
                            status: "ok";
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
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
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Kafka and MongoDB are reachable */
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
                            /** @enum {string} */
                            status: "ready";
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
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
    "/api/v1/devices/{id}/receipts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A device's receipts, newest first
         * @description One row per notification the device was targeted by and has an outcome for.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Items per page; values above 100 are served as 100 */
                    limit?: number;
                    page?: number;
                    outcome?: "delivered" | "failed" | "invalid" | "cancelled" | "expired" | "capped" | "deferred" | "held_out";
                };
                header?: never;
                path: {
                    /** @description The device id */
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
                            data: components["schemas"]["def-2"][];
                            pagination: {
                                /** @description Total number of matching items */
                                count: number;
                                /** @description The page served (1-based) */
                                page: number;
                                /** @description Number of pages, at least 1 */
                                pages: number;
                                /** @description 1-based position of the first item on this page; 0 when the page is empty */
                                from: number;
                                /** @description 1-based position of the last item on this page; 0 when the page is empty */
                                to: number;
                                /** @description Number of the last page (equals pages) */
                                last: number;
                            };
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
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
    "/api/v1/devices/{id}/explain": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A device's timeline from the log
         * @description Registrations, token refreshes, metadata changes, deactivations with the provider's evidence, unregistrations and unlinks from `herald.device-events`; receipts and opens of its most recent notifications (found in the delivery ledger) from `herald.notification-events`. 404 for a device that is not the project's. Read from the event log, bounded: a request reads at most 200,000 log records (422 past it, naming the span) within 15 s (503), one explain at a time per project (429). The CLI (`herald explain`) has no such bound.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The device id */
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
                            data: {
                                device_id: string;
                                project_id: string;
                                /** @description The herald.device-events partition its events are on */
                                partition: number;
                                /** @enum {unknown} */
                                status: "active" | "inactive";
                                token: string;
                                /** @description Oldest first */
                                timeline: {
                                    /** Format: date-time */
                                    at: string;
                                    /** @enum {unknown} */
                                    kind: "registered" | "reactivated" | "token_refreshed" | "metadata_changed" | "deactivated" | "deactivation_ignored" | "unregistered" | "unlinked" | "receipt" | "opened";
                                    summary: string;
                                    /** @description Where the fact is in the log (logical topic name) */
                                    log: {
                                        topic: string;
                                        partition: number;
                                        offset: number;
                                    };
                                    notification_id?: string;
                                    receipt?: {
                                        notification_id: string;
                                        batch_id: string;
                                        /** @enum {unknown} */
                                        provider: "apns" | "fcm" | "webpush" | "hms";
                                        /** @enum {unknown} */
                                        outcome: "delivered" | "failed" | "invalid" | "cancelled" | "expired" | "capped" | "deferred" | "held_out";
                                        reason: string | null;
                                        attempts: number | null;
                                        /** @description capped / deferred: the frequency cap or quiet hours that applied */
                                        rule?: string;
                                        /**
                                         * Format: date-time
                                         * @description deferred: when it goes out
                                         */
                                        until?: string;
                                        /** Format: date-time */
                                        at: string;
                                    };
                                    /** @description The provider's answer that deactivated the device (DeviceDeactivated) */
                                    evidence?: {
                                        /** @enum {unknown} */
                                        provider: "apns" | "fcm" | "webpush" | "hms";
                                        /** @description The provider's reason code (BadDeviceToken, Unregistered, UNREGISTERED, …) */
                                        reason: string;
                                        /** @description APNs 410: when Apple says the token stopped being valid */
                                        provider_timestamp: string | null;
                                        /** @description The send whose answer it was */
                                        notification_id: string | null;
                                    };
                                }[];
                                /** @description The notifications whose events were read for receipts and opens: the device's most recent ones (at most 20) */
                                notifications: string[];
                                /** @description The device's most recent Live Activity pushes (at most 20, newest first), one entry per token of the device each reached, from the pushes' status documents */
                                live_activities: {
                                    /** @description The Live Activity push (GET /api/v1/live-activities/{id}) */
                                    id: string;
                                    /** @enum {unknown} */
                                    event: "start" | "update" | "end";
                                    activity_id: string | null;
                                    attributes_type: string | null;
                                    /**
                                     * Format: date-time
                                     * @description When the push was accepted
                                     */
                                    at: string;
                                    /** @enum {unknown} */
                                    outcome: "delivered" | "invalid" | "failed";
                                    reason: string | null;
                                    /** @description The outcome for a person, naming what is missing when Herald knows (no APNs credentials: the command that sets them) */
                                    summary: string;
                                }[];
                                /** @description Log records read to answer */
                                scanned_records: number;
                            };
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
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
    "/api/v1/devices/{id}/live-activity-tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A device's Live Activity tokens
         * @description Oldest first; 404 for a device that is not the project's.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The device id */
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
                            data: {
                                /**
                                 * Format: uuid
                                 * @description Fixed by device, kind and activity (update) or attributes type (push-to-start): a rotated token keeps it
                                 */
                                id: string;
                                /** Format: uuid */
                                device_id: string;
                                kind: "push_to_start" | "update";
                                token: string;
                                activity_id: string | null;
                                attributes_type: string | null;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                updated_at: string;
                            }[];
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Attach a Live Activity token to a device (the device's own token or the bearer key proves it)
         * @description Stores an iOS device's push-to-start token (one per `attributes_type`) or an activity's update token (one per `activity_id`, required for `update`). A rotated token replaces the one in its slot (same id). Proof: the project's bearer key, or the device's current push token in `device_token`; without either, or with a token that is not the device's, 403 (the same answer whether the device exists or not). A device keeps at most 32 tokens (422 past it); an inactive or non-iOS device is refused with 422.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The device id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description `push_to_start`: `Activity<…>.pushToStartTokenUpdates` (iOS 17.2+); `update`: an activity's `pushTokenUpdates` */
                        kind: "push_to_start" | "update";
                        /** @description An APNs token as hex digits (ActivityKit gives `Data`: hex-encode it) */
                        token: string;
                        /** @description The activity (`Activity.id`) whose updates the token receives */
                        activity_id?: string;
                        /** @description The Swift type name of the `ActivityAttributes` */
                        attributes_type?: string;
                        /** @description The device's current push token: the device's proof when no bearer key is sent */
                        device_token?: string;
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
                            data: {
                                /**
                                 * Format: uuid
                                 * @description Fixed by device, kind and activity (update) or attributes type (push-to-start): a rotated token keeps it
                                 */
                                id: string;
                                /** Format: uuid */
                                device_id: string;
                                kind: "push_to_start" | "update";
                                token: string;
                                activity_id: string | null;
                                attributes_type: string | null;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                updated_at: string;
                            };
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
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
    "/api/v1/devices/{id}/live-activity-tokens/{token_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a Live Activity token from a device
         * @description 404 when the device or the token is not the project's.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The device id */
                    id: string;
                    /** @description The token id */
                    token_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Removed */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/devices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List devices of the current project
         * @description Devices in creation order (then id). A page past the last one is empty.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Items per page; values above 100 are served as 100 */
                    limit?: number;
                    page?: number;
                    status?: "active" | "inactive";
                    /** @description Only the device with exactly this token */
                    token?: string;
                    /** @description Only the devices of this user (the project's external id) */
                    external_id?: string;
                    /** @description Only the devices of this platform */
                    platform?: "ios" | "android" | "web" | "huawei";
                    /** @description With metadata_value: only the devices whose metadata has this key with that value */
                    metadata_key?: string;
                    /** @description The value metadata_key must have (exactly, as stored) */
                    metadata_value?: string;
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
                            data: components["schemas"]["def-3"][];
                            pagination: {
                                /** @description Total number of matching items */
                                count: number;
                                /** @description The page served (1-based) */
                                page: number;
                                /** @description Number of pages, at least 1 */
                                pages: number;
                                /** @description 1-based position of the first item on this page; 0 when the page is empty */
                                from: number;
                                /** @description 1-based position of the last item on this page; 0 when the page is empty */
                                to: number;
                                /** @description Number of the last page (equals pages) */
                                last: number;
                            };
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Register a device (called by the device; no bearer key)
         * @description Registers a device token, or re-registers it: a re-registered inactive device becomes active again. The device id is derived from (project, token), so registering the same token twice yields one device. Fields left out keep their current values; `topics`, when given, replaces the subscriptions. A token refresh names the existing `device_id` with a new token and proves it is that device: `previous_token` equal to the device's current token, or the project's bearer key; without proof it is refused with 403 and nothing changes. A token that was a device's first one while the device now holds another is refused with 409 (moving it back needs a refresh's proof). A web device (`platform` web) sends `subscription` instead of `token`: its endpoint must be https to a public host and its keys a P-256 point and a 16-byte secret (400 naming the field); the project needs Web Push keys first (422 otherwise; `GET /api/v1/webpush/public-key`). A device over DEVICE_MAX_BYTES or a new device past the project's device quota is refused with 400; a new device-created topic whose name has an id's or a device token's form with 422 (a plain target string of that form names a device, never a topic). The answer is the caller's own device only (the caller holds its token).
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
                        project_id: string;
                        /** @description APNs device token, FCM registration token or HMS push token (required for ios, android and huawei; web devices send `subscription`) */
                        token?: string;
                        /**
                         * @description huawei: an Android device with Huawei Mobile Services and no Google services, sent through Huawei Push Kit
                         * @enum {unknown}
                         */
                        platform: "ios" | "android" | "web" | "huawei";
                        /** @description platform web: the browser's `PushSubscription.toJSON()` as it is. The device id is derived from (project, endpoint); a new endpoint for the same device is a token refresh (`device_id` with `previous_token` = the old endpoint, or the bearer key) */
                        subscription?: {
                            /** @description The push service URL: https to a public host (the device's token from now on) */
                            endpoint: string;
                            expirationTime?: number | null;
                            keys: {
                                /** @description base64url of an uncompressed P-256 public key */
                                p256dh: string;
                                /** @description base64url of the 16-byte authentication secret */
                                auth: string;
                            };
                        };
                        /** @description platform web: the key the browser subscribed with (`subscription.options.applicationServerKey`, base64url); it must be one of the project's Web Push keys. Absent: the project's current key */
                        application_server_key?: string;
                        /** @description On a token refresh: the id the device had, which it keeps */
                        device_id?: string;
                        /** @description On a token refresh: the device's current token, which proves the caller is that device (or send the project's bearer key) */
                        previous_token?: string;
                        /** @description Keys: 1–64 characters, without '.' or control characters, not starting with '$'; at most 64 entries; values at most 1024 characters */
                        identifiers?: {
                            [key: string]: string;
                        };
                        /** @description With identity verification on: per name in `identifiers`, the hex HMAC-SHA256 of `"identifier:" + value` under the project’s device-auth secret (the proof a metadata write by that value takes). A verified metadata write (`identifier_hash`) reaches a device by an identifier value only when its registration proved it (or was made with the project's bearer key); values without proof are stored but never reached by a verified write. */
                        identifier_hashes?: {
                            [key: string]: string;
                        };
                        /** @description Keys: 1–64 characters, without '.' or control characters, not starting with '$'; at most 64 entries; values at most 1024 characters */
                        metadata?: {
                            [key: string]: string;
                        };
                        /** @description The project's id of the user who owns the device; a target `{"external_id": …}` reaches all of that user's active devices. Needs proof: the project's bearer key, or `external_id_hash` with identity verification on. `null` unlinks the device from its user (the app signed out); no proof needed. A device coming back from inactive comes back without its user. */
                        external_id?: string | null;
                        /** @description Hex HMAC-SHA256 of "external_id:" + external_id under the project’s device-auth secret */
                        external_id_hash?: string;
                        /** @description IANA time zone name (e.g. Europe/Paris), for local-time sends */
                        timezone?: string;
                        /** @description BCP 47 language tag (e.g. fr-CA), stored in canonical form, for `{"locale": …}` targets; absent: the previous one is kept */
                        locale?: string;
                        /** @description Names of topics to subscribe to (replacing the subscriptions). Each must exist (POST /api/v1/topics), unless the project lets devices create topics; then a new name is created as a device-created topic (at most 1000 per project), never taking a device's id or token */
                        topics?: string[];
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
                            data: components["schemas"]["def-3"];
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
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
    "/api/v1/devices/purge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Purge the devices the project deleted
         * @description Publishes DevicePurged for each device of the project that was deleted (`DELETE /api/v1/devices/{id}`, status `inactive`, reason `Unregistered`), at most 1,000 a call, oldest first: they leave the device list, its counts and the delivery audience index, and a rebuild or replay of the log leaves them out too. Their receipts (delivery history) stay. Devices made inactive by a provider are not purged; a deleted device registered again before its purge is applied stays. Answers how many were purged and whether deleted devices are left for another call (`more`). The list shows the change once the projector has applied it (moments later); calling again before that purges the same devices again, harmlessly.
         */
        post: {
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
                                purged: number;
                                more: boolean;
                            };
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
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
    "/api/v1/devices/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A device of the current project
         * @description A device the project deleted is `inactive` with `deactivation.reason` `Unregistered`; 404 for an id that is not the project's.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The device id */
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
                            data: components["schemas"]["def-3"];
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Unregister a device
         * @description Publishes DeviceUnregistered: the device becomes `inactive` (reason `Unregistered`) and is never targeted again; its receipts stay. It still lists, with `status=inactive`. If the app registers the same token again, the device is active again. Repeating is harmless (204).
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The device id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Unregistered */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Detach a device from its user
         * @description `{"external_id": null}` unlinks the device (publishes DeviceUnlinked): an `{"external_id": …}` target no longer reaches it. Answers the device as it will read. Harmless when it has no user. To link a device to a user, register it with the bearer key (or `external_id_hash`).
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The device id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        external_id: null;
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
                            data: components["schemas"]["def-3"];
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/drafts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's drafts, the most recently saved first (without their content) */
        get: {
            parameters: {
                query?: {
                    /** @description Items per page; values above 100 are served as 100 */
                    limit?: number;
                    page?: number;
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
                            data: components["schemas"]["def-5"][];
                            pagination: {
                                /** @description Total number of matching items */
                                count: number;
                                /** @description The page served (1-based) */
                                page: number;
                                /** @description Number of pages, at least 1 */
                                pages: number;
                                /** @description 1-based position of the first item on this page; 0 when the page is empty */
                                from: number;
                                /** @description 1-based position of the last item on this page; 0 when the page is empty */
                                to: number;
                                /** @description Number of the last page (equals pages) */
                                last: number;
                            };
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Save a draft of a send
         * @description 201 with the draft. 422 when the project already keeps 500 drafts or the content is over 64 KB as JSON. `source_notification_id` records a duplicate of a sent notification (it must be one of the project's).
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
                        /** @description What people call the draft (campaign name); need not be unique */
                        name: string;
                        /** @description The send body being composed, as POST /api/v1/notifications takes it (`{"notification": …}`). Kept as given (at most 64 KB as JSON): a draft need not be a valid send yet; sending it checks it. */
                        content: {
                            [key: string]: unknown;
                        };
                        /** Format: uuid */
                        source_notification_id?: string;
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
                            data: components["schemas"]["def-4"];
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
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
    "/api/v1/drafts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A draft with its content */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The draft id */
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
                            data: components["schemas"]["def-4"];
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
            };
        };
        /** Replace a draft's name and content */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The draft id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description What people call the draft (campaign name); need not be unique */
                        name: string;
                        /** @description The send body being composed, as POST /api/v1/notifications takes it (`{"notification": …}`). Kept as given (at most 64 KB as JSON): a draft need not be a valid send yet; sending it checks it. */
                        content: {
                            [key: string]: unknown;
                        };
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
                            data: components["schemas"]["def-4"];
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
            };
        };
        post?: never;
        /** Delete a draft */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The draft id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The project's events as they happen (Server-Sent Events)
         * @description Delivery outcomes, opens, deactivations and notification status changes (DeliveryReported, NotificationOpened, DeviceDeactivated, DeviceUnregistered, NotificationRequested, NotificationDispatched, NotificationCancelled, NotificationExpired, NotificationSteered, AudienceEstimated, VariantDecided, LiveActivityRequested, LiveActivityReported), read from the Kafka log. Each message has an `id`; reconnect with `Last-Event-ID: <id>` to resume exactly after it (nothing missed, nothing twice). Without it the stream starts at the end of the log (now). `event:` is the event type; `data:` the event (id, type, version, occurred_at, project_id, data). A comment line every 15 s keeps proxies from closing it; the server ends a stream after EVENT_STREAM_MAX_MS (reconnect with the last id). 429 beyond the open-stream limits. See docs/event-stream.md for what one stream costs.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Comma-separated event types to keep (default all): DeliveryReported, NotificationOpened, DeviceDeactivated, DeviceUnregistered, NotificationRequested, NotificationDispatched, NotificationCancelled, NotificationExpired, NotificationSteered, AudienceEstimated, VariantDecided, LiveActivityRequested, LiveActivityReported */
                    types?: string;
                };
                header?: {
                    "last-event-id"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description An endless text/event-stream */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": string;
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
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
    "/api/v1/live-activities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start, update or end a Live Activity
         * @description Accepts a Live Activity push and answers its id; the delivery apns role resolves the tokens when it sends. 400 for a body of the wrong shape, 422 naming the field for a combination the event does not allow or an APNs payload over 4096 bytes.
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
                        /** @description `start` a new activity on the targets (their push-to-start tokens); `update` or `end` the activity `activity_id` (its update tokens) */
                        event: "start" | "update" | "end";
                        /** @description update and end: the activity (`Activity.id`) whose update tokens receive the push */
                        activity_id?: string;
                        /** @description start only: OR'd targets as for notifications (docs/guides/targets.md): devices, users (`{"external_id"}`), topics, metadata and expressions; saved segments are refused. The push-to-start tokens for `attributes_type` of the active iOS devices they name receive the push (at most 2,000 tokens) */
                        targets?: (string | {
                            /** @description The subscribers of the topic with this name or id */
                            topic?: string;
                            /** @description Exactly the device with this id */
                            device_id?: string;
                            /** @description Exactly the device holding this push token */
                            token?: string;
                            /** @description A user's devices */
                            external_id?: string;
                            /** @description Devices whose metadata passes every key test: a string (equality), {"in": [...]}, {"exists": true|false} or {"ne": "..."} (an unset key is not equal) */
                            metadata?: {
                                [key: string]: unknown;
                            };
                            /** @description Devices of this platform (ios, android, web, huawei) */
                            platform?: string;
                            /** @description Devices whose BCP 47 locale is this one or starts with its subtags ("fr" matches fr, fr-CA) */
                            locale?: string;
                            /** @description Devices in this IANA time zone */
                            timezone?: string;
                            /** @description The saved segment with this id or name (POST /api/v1/segments): its latest version when the send is accepted, pinned in the notification */
                            segment?: string;
                            /** @description Targets every one of which names the device */
                            and?: unknown[];
                            /** @description Targets any one of which names the device */
                            or?: unknown[];
                            /** @description A target that must not name the device */
                            not?: unknown;
                        })[];
                        /** @description The Swift type name of the `ActivityAttributes` */
                        attributes_type?: string;
                        /** @description start: the `ActivityAttributes`' static values */
                        attributes?: {
                            [key: string]: unknown;
                        };
                        /** @description The activity's `ContentState` (required for start and update) */
                        content_state?: {
                            [key: string]: unknown;
                        };
                        /** @description Shown with the push (required for start) */
                        alert?: {
                            title: string;
                            body: string;
                            sound?: string;
                        };
                        /** @description UNIX seconds after which the system marks the content stale */
                        stale_date?: number;
                        /** @description end only: UNIX seconds when the ended activity leaves the Lock Screen (without it, iOS decides, up to four hours) */
                        dismissal_date?: number;
                        /** @description Which activity the Dynamic Island features */
                        relevance_score?: number;
                        /** @description 10 (default): now, within Apple's budget; 5: when power allows */
                        priority?: 5 | 10;
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
                            data: {
                                /** Format: uuid */
                                id: string;
                                event: "start" | "update" | "end";
                                activity_id: string | null;
                                attributes_type: string | null;
                                /** @description The `aps.timestamp` every attempt of this push carries */
                                timestamp: number;
                                /** @description `accepted`: not yet sent; `sent`: `outcomes` holds one entry per token (none when no token matched); `coalesced`: an update superseded within the per-activity rate by `coalesced_into`, never sent */
                                status: "accepted" | "sent" | "coalesced";
                                outcomes: {
                                    device_id: string;
                                    token_id: string;
                                    outcome: "delivered" | "invalid" | "failed";
                                    reason?: string;
                                }[];
                                /** @description Tokens by outcome */
                                counts: {
                                    delivered: number;
                                    invalid: number;
                                    failed: number;
                                    /** @description Tokens a coalesced update would have reached */
                                    coalesced: number;
                                };
                                /** @description coalesced: the newer update (its id) that carried the later content_state */
                                coalesced_into: string | null;
                                /** Format: date-time */
                                created_at: string;
                                reported_at: string | null;
                            };
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
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
    "/api/v1/live-activities/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A Live Activity push and its per-token outcomes
         * @description 404 when it is not the project's.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The id the send answered */
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
                            data: {
                                /** Format: uuid */
                                id: string;
                                event: "start" | "update" | "end";
                                activity_id: string | null;
                                attributes_type: string | null;
                                /** @description The `aps.timestamp` every attempt of this push carries */
                                timestamp: number;
                                /** @description `accepted`: not yet sent; `sent`: `outcomes` holds one entry per token (none when no token matched); `coalesced`: an update superseded within the per-activity rate by `coalesced_into`, never sent */
                                status: "accepted" | "sent" | "coalesced";
                                outcomes: {
                                    device_id: string;
                                    token_id: string;
                                    outcome: "delivered" | "invalid" | "failed";
                                    reason?: string;
                                }[];
                                /** @description Tokens by outcome */
                                counts: {
                                    delivered: number;
                                    invalid: number;
                                    failed: number;
                                    /** @description Tokens a coalesced update would have reached */
                                    coalesced: number;
                                };
                                /** @description coalesced: the newer update (its id) that carried the later content_state */
                                coalesced_into: string | null;
                                /** Format: date-time */
                                created_at: string;
                                reported_at: string | null;
                            };
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
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
    "/api/v1/metadata": {
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
         * Update a device's metadata (no bearer key needed; project and device in the query)
         * @description `identifier` matches, within the project, a device id, a device token, or any value of a device's `identifiers`; it matches a device's `external_id` (its user) only with proof that the caller may speak for that user: the project's bearer key, or (identity verification on) a valid `identifier_hash`. Without proof a user id matches nothing, so the answer (404) says nothing about that user. Every matching device is updated. `locale` replaces the device's locale (the app's language changed). Metadata merge semantics: given keys are set, keys sent as `null` are removed, others are kept. At most 100 devices: an identifier that matches more is refused with 400. A device keeps at most 64 metadata keys; a merge that would exceed it is refused with 400. Answers only how many devices were updated: the caller has no API key, so nothing about any device is revealed. When the project has identity verification on (`herald projects identity-verification <project-id> on`), `identifier_hash` must be the hex HMAC-SHA256 of `"identifier:" + identifier` under the project's device-auth secret, else 401; the project's bearer key stands in for it. A bearer key that is not valid is refused with 401.
         */
        patch: {
            parameters: {
                query: {
                    project_id: string;
                    identifier: string;
                    /** @description Hex HMAC-SHA256 of the string `"identifier:" + identifier` under the project's device-auth secret; required when identity verification is on (unless the bearer key is sent) */
                    identifier_hash?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description `metadata`, `locale` or both */
            requestBody: {
                content: {
                    "application/json": {
                        /** @description A string value sets the key; null removes it. Keys: 1–64 characters, without '.' or control characters, not starting with '$'; at most 64 entries; values at most 1024 characters */
                        metadata?: {
                            [key: string]: string | null;
                        };
                        /** @description The device's BCP 47 language tag (e.g. fr-CA), stored in canonical form; 400 when it is not one */
                        locale?: string;
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
                            data: {
                                /** @description Devices whose metadata was updated */
                                updated: number;
                            };
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/notifications/{id}/receipts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A notification's per-device receipts
         * @description One row per device with an outcome, batch by batch (APNs, then FCM, in send order). Devices targeted but not yet reported are not listed: `counts.targeted` minus the rows here is what is still outstanding. Served from the delivery ledger (one document per batch).
         */
        get: {
            parameters: {
                query?: {
                    /** @description Items per page; values above 100 are served as 100 */
                    limit?: number;
                    page?: number;
                    outcome?: "delivered" | "failed" | "invalid" | "cancelled" | "expired" | "capped" | "deferred" | "held_out";
                };
                header?: never;
                path: {
                    /** @description The notification id */
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
                            data: components["schemas"]["def-2"][];
                            pagination: {
                                /** @description Total number of matching items */
                                count: number;
                                /** @description The page served (1-based) */
                                page: number;
                                /** @description Number of pages, at least 1 */
                                pages: number;
                                /** @description 1-based position of the first item on this page; 0 when the page is empty */
                                from: number;
                                /** @description 1-based position of the last item on this page; 0 when the page is empty */
                                to: number;
                                /** @description Number of the last page (equals pages) */
                                last: number;
                            };
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
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
    "/api/v1/notifications/{id}/report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A notification's failures by reason and its outcomes and opens over time
         * @description Read model `notification_reports`, folded from the same events as the counts. `failures`: devices not delivered, grouped by provider, outcome and the provider's reason (or Herald's), most frequent first. `timeline`: outcomes reported and opens recorded per bucket, oldest first; buckets are minutes for two hours after the first outcome, hours for a week, then days. An A/B send adds `variants` (each variant's funnel, the remainder's and the holdout's, from the notification's counts by variant) and `decision`; a template or localised send adds `locales` (the funnel per content locale).
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The notification id */
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
                            data: {
                                failures: {
                                    /** @enum {unknown} */
                                    provider: "apns" | "fcm" | "webpush" | "hms";
                                    /** @enum {unknown} */
                                    outcome: "failed" | "invalid";
                                    /** @description '' when none was given */
                                    reason: string;
                                    count: number;
                                }[];
                                timeline: {
                                    /** Format: date-time */
                                    at: string;
                                    /** @enum {unknown} */
                                    span: "minute" | "hour" | "day";
                                    delivered: number;
                                    failed: number;
                                    invalid: number;
                                    cancelled: number;
                                    /** @description Opens recorded in the period */
                                    opened: number;
                                }[];
                                /** @description An A/B send: each variant (by name), then the remainder and the holdout */
                                variants?: {
                                    /** @description A variant's name, `remainder` (the chosen variant, sent after the decision) or `holdout` */
                                    variant: string;
                                    /** @enum {unknown} */
                                    kind: "variant" | "remainder" | "holdout";
                                    /** @description Devices counted here: each reported device once */
                                    targeted: number;
                                    delivered: number;
                                    /** @description Not delivered: failed or invalid */
                                    failed: number;
                                    /** @description Opens recorded (NotificationOpened) */
                                    opened: number;
                                    /** @description opened / delivered; null when nothing was delivered */
                                    open_rate: number | null;
                                    /** @description The holdout: devices recorded `held_out` (sent nothing; their opens of the app are not known to Herald) */
                                    held_out: number;
                                }[];
                                /** @description An A/B send with a test share: null until decided */
                                decision?: {
                                    /** @description The variant chosen for the remainder: the best when `significant`, else the send's fallback */
                                    winner: string;
                                    /** @description The variant with the best open rate at the decision */
                                    best: string;
                                    /** @description p < 0.05 (two-proportion z-test of the best against the runner-up) */
                                    significant: boolean;
                                    /** @enum {unknown} */
                                    reason: "significant" | "not_significant" | "no_data";
                                    p_value: number | null;
                                    /** @description The VariantDecided event's time (null on a report projected before it was kept) */
                                    decided_at: string | null;
                                } | null;
                                /** @description A template or localised send: each content locale, most targeted first */
                                locales?: {
                                    /** @description The content locale devices got (`default`: none of their own matched) */
                                    locale: string;
                                    /** @description Devices counted here: each reported device once */
                                    targeted: number;
                                    delivered: number;
                                    /** @description Not delivered: failed or invalid */
                                    failed: number;
                                    /** @description Opens recorded (NotificationOpened) */
                                    opened: number;
                                    /** @description opened / delivered; null when nothing was delivered */
                                    open_rate: number | null;
                                }[];
                            };
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
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
    "/api/v1/notifications/{id}/receipts.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every receipt of a notification as CSV (streamed)
         * @description Every row of `GET /api/v1/notifications/{id}/receipts`, in the same order, as `text/csv` with a header line (device_id, provider, outcome, reason, attempts, delivered_at, opened_at, reported_at). Written batch by batch as the delivery ledger is read, so its size is not bounded by memory.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The notification id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description CSV, one line per receipt */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/csv": string;
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
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
    "/api/v1/notifications/{id}/explain": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Why a device was or was not reached by a notification
         * @description From the log: the notification's events, the fan-out task of the device's partition (its recorded audience position `wait_for` and resolved audience) and the device's events up to that position, judged by the audience predicate. `reason`: reached, provider_rejected (the token refused), send_failed (retries exhausted or no credentials), not_matched (which clause failed), inactive (since, evidence), unregistered, registered_after_send, cancelled, expired, not_dispatched_yet, audience_unknown (its fan-out records, kept 7 days, are gone), awaiting_report. Without `device_id`, only the notification's facts. 404 for a notification or device that is not the project's. Read from the event log, bounded: a request reads at most 200,000 log records (422 past it, naming the span) within 15 s (503), one explain at a time per project (429). The CLI (`herald explain`) has no such bound.
         */
        get: {
            parameters: {
                query?: {
                    /** @description The device to explain */
                    device_id?: string;
                };
                header?: never;
                path: {
                    /** @description The notification id */
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
                            data: {
                                notification: {
                                    id: string;
                                    project_id: string;
                                    /** Format: date-time */
                                    requested_at: string;
                                    targets: unknown[];
                                    cancelled_at: string | null;
                                    expired: {
                                        /** Format: date-time */
                                        at: string;
                                        reason: string;
                                    } | null;
                                    /** @description Partition dispatches announced (NotificationDispatched) */
                                    dispatches: number;
                                };
                                device: {
                                    device_id: string;
                                    reached: boolean;
                                    /** @enum {unknown} */
                                    reason: "reached" | "provider_rejected" | "send_failed" | "not_matched" | "inactive" | "unregistered" | "registered_after_send" | "cancelled" | "expired" | "capped" | "deferred" | "not_dispatched_yet" | "audience_unknown" | "awaiting_report";
                                    summary: string;
                                    /** @description The device-events end offset the send's audience was taken at on the device's partition (the fan-out task's wait_for) */
                                    audience_position: {
                                        partition: number;
                                        offset: number;
                                    } | null;
                                    /** @description The device as its events left it at that position */
                                    device_at_send: {
                                        /** @enum {unknown} */
                                        status: "active" | "inactive";
                                        token: string;
                                        topics: string[];
                                        metadata: {
                                            [key: string]: string;
                                        };
                                        external_id: string | null;
                                        timezone: string | null;
                                    } | null;
                                    /** @description Each target clause of the send's audience and whether it named the device */
                                    clauses: {
                                        clause: string;
                                        matched: boolean;
                                        detail: string;
                                    }[];
                                    inactive_since: string | null;
                                    evidence: {
                                        /** @enum {unknown} */
                                        provider: "apns" | "fcm" | "webpush" | "hms";
                                        /** @description The provider's reason code (BadDeviceToken, Unregistered, UNREGISTERED, …) */
                                        reason: string;
                                        /** @description APNs 410: when Apple says the token stopped being valid */
                                        provider_timestamp: string | null;
                                        /** @description The send whose answer it was */
                                        notification_id: string | null;
                                    } | null;
                                    registered_at: {
                                        topic: string;
                                        partition: number;
                                        offset: number;
                                    } | null;
                                    receipts: {
                                        notification_id: string;
                                        batch_id: string;
                                        /** @enum {unknown} */
                                        provider: "apns" | "fcm" | "webpush" | "hms";
                                        /** @enum {unknown} */
                                        outcome: "delivered" | "failed" | "invalid" | "cancelled" | "expired" | "capped" | "deferred" | "held_out";
                                        reason: string | null;
                                        attempts: number | null;
                                        /** @description capped / deferred: the frequency cap or quiet hours that applied */
                                        rule?: string;
                                        /**
                                         * Format: date-time
                                         * @description deferred: when it goes out
                                         */
                                        until?: string;
                                        /** Format: date-time */
                                        at: string;
                                    }[];
                                    opened_at: string | null;
                                } | null;
                                scanned_records: number;
                            };
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
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
    "/api/v1/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The notifications of the project, newest first
         * @description Search with `q` (words in the title, as typed, case-insensitive), `created_from` / `created_to` (created at or after / before), `outcome` (at least one device had it); a search reads the project's notifications in the date range (the whole project without one) and its `pagination.count` stops at 10,000.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Items per page; values above 100 are served as 100 */
                    limit?: number;
                    page?: number;
                    /** @description `scheduled`: held until `send_at` / `send_at_local`; `queued`: accepted, audience not yet resolved; `sending`: dispatched, outcomes outstanding; `paused`: held by PATCH `{"state": "paused"}` until resumed; `sent`: every targeted device has an outcome (`expired` devices included: `max_duration` ran out); `cancelled`: cancelled before it finished; `expired`: too old to send */
                    status?: "scheduled" | "queued" | "sending" | "paused" | "sent" | "cancelled" | "expired";
                    /** @description Words in the title, matched as typed, case-insensitive */
                    q?: string;
                    /** @description Created at or after this instant */
                    created_from?: string;
                    /** @description Created before this instant */
                    created_to?: string;
                    /** @description At least one device had this outcome */
                    outcome?: "delivered" | "failed" | "invalid" | "cancelled" | "expired" | "capped" | "opened";
                    /** @description List test sends (`test_send`) too, and count them; default false */
                    include_tests?: boolean;
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
                            data: components["schemas"]["def-6"][];
                            pagination: {
                                /** @description Total number of matching items */
                                count: number;
                                /** @description The page served (1-based) */
                                page: number;
                                /** @description Number of pages, at least 1 */
                                pages: number;
                                /** @description 1-based position of the first item on this page; 0 when the page is empty */
                                from: number;
                                /** @description 1-based position of the last item on this page; 0 when the page is empty */
                                to: number;
                                /** @description Number of the last page (equals pages) */
                                last: number;
                            };
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Send a notification
         * @description Answers 201 once Kafka has acknowledged the request; delivery happens after. Every problem in the body is listed at once (422). With an `Idempotency-Key` header, repeating the request within 24 h returns the first notification and queues nothing new.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    "idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        notification: {
                            /** @description Required unless `template` is given */
                            title?: string;
                            /** @description Required unless `template` is given */
                            body?: string;
                            targets: (string | {
                                /** @description The subscribers of the topic with this name or id */
                                topic?: string;
                                /** @description Exactly the device with this id */
                                device_id?: string;
                                /** @description Exactly the device holding this push token */
                                token?: string;
                                /** @description A user's devices */
                                external_id?: string;
                                /** @description Devices whose metadata passes every key test: a string (equality), {"in": [...]}, {"exists": true|false} or {"ne": "..."} (an unset key is not equal) */
                                metadata?: {
                                    [key: string]: unknown;
                                };
                                /** @description Devices of this platform (ios, android, web, huawei) */
                                platform?: string;
                                /** @description Devices whose BCP 47 locale is this one or starts with its subtags ("fr" matches fr, fr-CA) */
                                locale?: string;
                                /** @description Devices in this IANA time zone */
                                timezone?: string;
                                /** @description The saved segment with this id or name (POST /api/v1/segments): its latest version when the send is accepted, pinned in the notification */
                                segment?: string;
                                /** @description Targets every one of which names the device */
                                and?: unknown[];
                                /** @description Targets any one of which names the device */
                                or?: unknown[];
                                /** @description A target that must not name the device */
                                not?: unknown;
                            })[];
                            /** @description A template by name or id, optionally `@<version>` (without: the newest). Instead of `title` and `body`; the version is pinned in the send */
                            template?: string;
                            /** @description The template's variables (not `device`: the device's own values are read under it) */
                            variables?: {
                                [key: string]: unknown;
                            };
                            /** @description A literal send's content by locale tag (`fr`, `fr-CA`), not Liquid: a device gets its locale's fields over the send's own (fallback `fr-CA` → `fr` → the send's own) */
                            localizations?: {
                                [key: string]: {
                                    /** @description Liquid: the title */
                                    title?: string;
                                    /** @description Liquid: the body */
                                    body?: string;
                                    /** @description Liquid: the deep link opened on tap */
                                    link_to?: string;
                                    /** @description Liquid: https URL of an image */
                                    image?: string;
                                    /** @description Custom key/value pairs for the app; each value is Liquid */
                                    data?: {
                                        [key: string]: string;
                                    };
                                };
                            };
                            /** @description An A/B send: each device of the audience gets one variant, by a hash of notification and device ids (instead of `title` and `body` or `template`) */
                            variants?: {
                                /** @description Unique within the send: `A`, `B`, `short-copy` */
                                name: string;
                                title?: string;
                                body?: string;
                                link_to?: string;
                                image?: string;
                                data?: {
                                    [key: string]: string;
                                };
                                /** @description A template by name or id, optionally `@<version>` (without: the newest). Instead of `title` and `body`; the version is pinned in the send */
                                template?: string;
                                /** @description The template's variables (not `device`: the device's own values are read under it) */
                                variables?: {
                                    [key: string]: unknown;
                                };
                            }[];
                            /** @description Share (%) of the audience that gets nothing: reported `held_out`, counted, for analytics */
                            holdout_percent?: number;
                            /** @description Without it every device takes part: no remainder, no decision */
                            test?: {
                                /** @description Share (%) of the audience outside the holdout that takes part; the rest (the remainder) gets the winner at `decide_after` */
                                percent: number;
                                /** @description ISO 8601 duration of days, hours, minutes, seconds after the send is due (`PT2H`; at most `P7D`) */
                                decide_after: string;
                                /** @enum {string} */
                                metric: "open_rate";
                            };
                            /** @description The variant the remainder gets when no variant wins significantly (default: the first) */
                            fallback?: string;
                            /** @description A test send: delivered like any other to the devices named (device_id, token or external_id targets only, at most 20), marked in its event, and left out of the notification list and its counts unless `include_tests=true` */
                            test_send?: boolean;
                            link_to?: string;
                            /** @description Groups notifications on the device: APNs thread-id, Android notification tag */
                            group?: string;
                            /** @description Custom key/value pairs for the app: APNs top-level keys, FCM `data` */
                            data?: {
                                [key: string]: string;
                            };
                            /** @description App icon badge: APNs `aps.badge`, FCM `android.notification.notification_count` */
                            badge?: number;
                            /** @description Sound file name or `default`: APNs `aps.sound`, FCM `android.notification.sound` */
                            sound?: string;
                            /** @description Seconds the provider keeps trying (≤ 28 days; 0: now or never): APNs `apns-expiration`, FCM `android.ttl` */
                            ttl?: number;
                            /**
                             * @description APNs `apns-priority` 10 / 5, FCM `android.priority`
                             * @enum {unknown}
                             */
                            priority?: "high" | "normal";
                            /** @description Replaces an earlier notification with the same id: APNs `apns-collapse-id` (≤ 64 bytes), FCM `android.collapse_key` */
                            collapse_id?: string;
                            /** @description Background (silent) push: APNs `aps.content-available` (push type `background`, priority 5 when title and body are empty), FCM data-only message */
                            content_available?: boolean;
                            /** @description Lets a Notification Service Extension modify it: APNs `aps.mutable-content` (no FCM equivalent) */
                            mutable_content?: boolean;
                            /** @description https URL of an image: APNs custom key `image`, FCM `notification.image` */
                            image?: string;
                            /** @description Actionable notification type: APNs `aps.category`, FCM `android.notification.click_action` */
                            category?: string;
                            /** @description Groups notifications (wins over `group`): APNs `aps.thread-id`, FCM `android.notification.tag` */
                            thread_id?: string;
                            /** @description Merged last into the APNs JSON body (objects key by key; other values replace), e.g. {"aps": {"interruption-level": "time-sensitive"}} */
                            apns?: {
                                [key: string]: unknown;
                            };
                            /** @description Merged last into the FCM message as firebase-admin builds it (its field names), e.g. {"android": {"notification": {"channelId": "sales"}}}; may not set the target (token, topic, condition) */
                            fcm?: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 3339 instant to send at, at most 30 days ahead (a time up to a minute past sends now) */
                            send_at?: string;
                            /** @description Wall-clock time ("2026-12-01T09:00") at which each device gets it in its own `timezone` (devices without one: the project's default, else UTC); at most 30 days ahead. A zone whose time has already passed gets it at once */
                            send_at_local?: string;
                            /** @description Pushes per minute, across every delivery instance together, sent evenly (a paced campaign); absent: the project's default (`herald projects pace`), else as fast as Herald goes. PATCH changes it in flight */
                            rate_per_minute?: number;
                            /** @description Seconds from when the send is due (now, `send_at`, or each local-time slot) after which nothing more is sent: the devices left are reported `expired` */
                            max_duration?: number;
                            /** @description `transactional`: sent on the express lane ahead of the project's campaigns, never paced, not held by the project's budget (`herald projects budget`) for its first 11,000 devices per partition, and not subject to the project's frequency cap and quiet hours (`herald projects caps` / `quiet-hours`). `campaign`: paced (its own `rate_per_minute` or the project's default), held by the project's budget, capped (devices over the cap are reported `capped` or `deferred`) and kept quiet (devices in quiet hours are `deferred` to their end) from its first push. Absent: decided per device partition by size: a partition whose share of the audience fits its first step (1,000 devices) sends it as transactional, a larger one as campaign (docs/internals/campaign-control.md) */
                            priority_lane?: "transactional" | "campaign";
                        };
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
                            data: components["schemas"]["def-6"];
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
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
    "/api/v1/notifications/dry-run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * How many devices a send would reach, without sending
         * @description Takes the same body as `POST /api/v1/notifications` and checks it the same way (422 lists every problem), then counts the active devices its targets resolve to now, by platform, with the same audience predicate as the fan-out. Nothing is published or stored. The count is a moment's: devices registering or leaving before the send change it.
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
                        notification: {
                            /** @description Required unless `template` is given */
                            title?: string;
                            /** @description Required unless `template` is given */
                            body?: string;
                            targets: (string | {
                                /** @description The subscribers of the topic with this name or id */
                                topic?: string;
                                /** @description Exactly the device with this id */
                                device_id?: string;
                                /** @description Exactly the device holding this push token */
                                token?: string;
                                /** @description A user's devices */
                                external_id?: string;
                                /** @description Devices whose metadata passes every key test: a string (equality), {"in": [...]}, {"exists": true|false} or {"ne": "..."} (an unset key is not equal) */
                                metadata?: {
                                    [key: string]: unknown;
                                };
                                /** @description Devices of this platform (ios, android, web, huawei) */
                                platform?: string;
                                /** @description Devices whose BCP 47 locale is this one or starts with its subtags ("fr" matches fr, fr-CA) */
                                locale?: string;
                                /** @description Devices in this IANA time zone */
                                timezone?: string;
                                /** @description The saved segment with this id or name (POST /api/v1/segments): its latest version when the send is accepted, pinned in the notification */
                                segment?: string;
                                /** @description Targets every one of which names the device */
                                and?: unknown[];
                                /** @description Targets any one of which names the device */
                                or?: unknown[];
                                /** @description A target that must not name the device */
                                not?: unknown;
                            })[];
                            /** @description A template by name or id, optionally `@<version>` (without: the newest). Instead of `title` and `body`; the version is pinned in the send */
                            template?: string;
                            /** @description The template's variables (not `device`: the device's own values are read under it) */
                            variables?: {
                                [key: string]: unknown;
                            };
                            /** @description A literal send's content by locale tag (`fr`, `fr-CA`), not Liquid: a device gets its locale's fields over the send's own (fallback `fr-CA` → `fr` → the send's own) */
                            localizations?: {
                                [key: string]: {
                                    /** @description Liquid: the title */
                                    title?: string;
                                    /** @description Liquid: the body */
                                    body?: string;
                                    /** @description Liquid: the deep link opened on tap */
                                    link_to?: string;
                                    /** @description Liquid: https URL of an image */
                                    image?: string;
                                    /** @description Custom key/value pairs for the app; each value is Liquid */
                                    data?: {
                                        [key: string]: string;
                                    };
                                };
                            };
                            /** @description An A/B send: each device of the audience gets one variant, by a hash of notification and device ids (instead of `title` and `body` or `template`) */
                            variants?: {
                                /** @description Unique within the send: `A`, `B`, `short-copy` */
                                name: string;
                                title?: string;
                                body?: string;
                                link_to?: string;
                                image?: string;
                                data?: {
                                    [key: string]: string;
                                };
                                /** @description A template by name or id, optionally `@<version>` (without: the newest). Instead of `title` and `body`; the version is pinned in the send */
                                template?: string;
                                /** @description The template's variables (not `device`: the device's own values are read under it) */
                                variables?: {
                                    [key: string]: unknown;
                                };
                            }[];
                            /** @description Share (%) of the audience that gets nothing: reported `held_out`, counted, for analytics */
                            holdout_percent?: number;
                            /** @description Without it every device takes part: no remainder, no decision */
                            test?: {
                                /** @description Share (%) of the audience outside the holdout that takes part; the rest (the remainder) gets the winner at `decide_after` */
                                percent: number;
                                /** @description ISO 8601 duration of days, hours, minutes, seconds after the send is due (`PT2H`; at most `P7D`) */
                                decide_after: string;
                                /** @enum {string} */
                                metric: "open_rate";
                            };
                            /** @description The variant the remainder gets when no variant wins significantly (default: the first) */
                            fallback?: string;
                            /** @description A test send: delivered like any other to the devices named (device_id, token or external_id targets only, at most 20), marked in its event, and left out of the notification list and its counts unless `include_tests=true` */
                            test_send?: boolean;
                            link_to?: string;
                            /** @description Groups notifications on the device: APNs thread-id, Android notification tag */
                            group?: string;
                            /** @description Custom key/value pairs for the app: APNs top-level keys, FCM `data` */
                            data?: {
                                [key: string]: string;
                            };
                            /** @description App icon badge: APNs `aps.badge`, FCM `android.notification.notification_count` */
                            badge?: number;
                            /** @description Sound file name or `default`: APNs `aps.sound`, FCM `android.notification.sound` */
                            sound?: string;
                            /** @description Seconds the provider keeps trying (≤ 28 days; 0: now or never): APNs `apns-expiration`, FCM `android.ttl` */
                            ttl?: number;
                            /**
                             * @description APNs `apns-priority` 10 / 5, FCM `android.priority`
                             * @enum {unknown}
                             */
                            priority?: "high" | "normal";
                            /** @description Replaces an earlier notification with the same id: APNs `apns-collapse-id` (≤ 64 bytes), FCM `android.collapse_key` */
                            collapse_id?: string;
                            /** @description Background (silent) push: APNs `aps.content-available` (push type `background`, priority 5 when title and body are empty), FCM data-only message */
                            content_available?: boolean;
                            /** @description Lets a Notification Service Extension modify it: APNs `aps.mutable-content` (no FCM equivalent) */
                            mutable_content?: boolean;
                            /** @description https URL of an image: APNs custom key `image`, FCM `notification.image` */
                            image?: string;
                            /** @description Actionable notification type: APNs `aps.category`, FCM `android.notification.click_action` */
                            category?: string;
                            /** @description Groups notifications (wins over `group`): APNs `aps.thread-id`, FCM `android.notification.tag` */
                            thread_id?: string;
                            /** @description Merged last into the APNs JSON body (objects key by key; other values replace), e.g. {"aps": {"interruption-level": "time-sensitive"}} */
                            apns?: {
                                [key: string]: unknown;
                            };
                            /** @description Merged last into the FCM message as firebase-admin builds it (its field names), e.g. {"android": {"notification": {"channelId": "sales"}}}; may not set the target (token, topic, condition) */
                            fcm?: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 3339 instant to send at, at most 30 days ahead (a time up to a minute past sends now) */
                            send_at?: string;
                            /** @description Wall-clock time ("2026-12-01T09:00") at which each device gets it in its own `timezone` (devices without one: the project's default, else UTC); at most 30 days ahead. A zone whose time has already passed gets it at once */
                            send_at_local?: string;
                            /** @description Pushes per minute, across every delivery instance together, sent evenly (a paced campaign); absent: the project's default (`herald projects pace`), else as fast as Herald goes. PATCH changes it in flight */
                            rate_per_minute?: number;
                            /** @description Seconds from when the send is due (now, `send_at`, or each local-time slot) after which nothing more is sent: the devices left are reported `expired` */
                            max_duration?: number;
                            /** @description `transactional`: sent on the express lane ahead of the project's campaigns, never paced, not held by the project's budget (`herald projects budget`) for its first 11,000 devices per partition, and not subject to the project's frequency cap and quiet hours (`herald projects caps` / `quiet-hours`). `campaign`: paced (its own `rate_per_minute` or the project's default), held by the project's budget, capped (devices over the cap are reported `capped` or `deferred`) and kept quiet (devices in quiet hours are `deferred` to their end) from its first push. Absent: decided per device partition by size: a partition whose share of the audience fits its first step (1,000 devices) sends it as transactional, a larger one as campaign (docs/internals/campaign-control.md) */
                            priority_lane?: "transactional" | "campaign";
                        };
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
                            data: {
                                total: number;
                                by_platform: {
                                    ios: number;
                                    android: number;
                                    /** @description Browsers (Web Push) */
                                    web: number;
                                    /** @description Android devices with Huawei Mobile Services (Push Kit) */
                                    huawei: number;
                                };
                            };
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
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
    "/api/v1/notifications/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A notification with its status, delivery counts (in all and per provider), timestamps and the request as sent */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The notification id */
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
                            data: components["schemas"]["def-6"];
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
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
        /**
         * Pause, resume or re-pace a notification in flight
         * @description `{"state": "paused"}` stops queueing and sending within a second across every delivery instance; its devices are held, not lost. `{"state": "sending"}` resumes where it stopped. `rate_per_minute` sets the pace from now on (also on an unpaced send; 422 on a `priority_lane: "transactional"` one, which is never paced). 202 with the notification as steered; 409 once it finished (sent, cancelled, expired). Cancel still works while paused.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The notification id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description `paused` or `sending` (resume)
                         * @enum {unknown}
                         */
                        state?: "paused" | "sending";
                        /** @description Pushes per minute, across every delivery instance together, sent evenly (a paced campaign); absent: the project's default (`herald projects pace`), else as fast as Herald goes. PATCH changes it in flight */
                        rate_per_minute?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["def-6"];
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/notifications/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a notification
         * @description Batches not yet sent are not sent: their devices are reported `cancelled`; batches already with a provider still complete. 202 with the notification as cancelled; repeating it is harmless (202 again). 409 once the notification was sent or expired. Works on a scheduled notification until its time.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The notification id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["def-6"];
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
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
    "/api/v1/notifications/{id}/replace": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Edit or reschedule a scheduled notification
         * @description Herald never changes a request once accepted (its event is the record): an edit is a new notification whose NotificationRequested carries `replaces` (the old id), published together with the old one's NotificationCancelled. The body is a whole send, checked as POST /api/v1/notifications checks it (422, the old send untouched). 201 with the new notification; 409 when the old one is no longer `scheduled` (it fired, was cancelled or was already replaced). With an `Idempotency-Key`, a repeat answers the same new notification.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    "idempotency-key"?: string;
                };
                path: {
                    /** @description The notification id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        notification: {
                            /** @description Required unless `template` is given */
                            title?: string;
                            /** @description Required unless `template` is given */
                            body?: string;
                            targets: (string | {
                                /** @description The subscribers of the topic with this name or id */
                                topic?: string;
                                /** @description Exactly the device with this id */
                                device_id?: string;
                                /** @description Exactly the device holding this push token */
                                token?: string;
                                /** @description A user's devices */
                                external_id?: string;
                                /** @description Devices whose metadata passes every key test: a string (equality), {"in": [...]}, {"exists": true|false} or {"ne": "..."} (an unset key is not equal) */
                                metadata?: {
                                    [key: string]: unknown;
                                };
                                /** @description Devices of this platform (ios, android, web, huawei) */
                                platform?: string;
                                /** @description Devices whose BCP 47 locale is this one or starts with its subtags ("fr" matches fr, fr-CA) */
                                locale?: string;
                                /** @description Devices in this IANA time zone */
                                timezone?: string;
                                /** @description The saved segment with this id or name (POST /api/v1/segments): its latest version when the send is accepted, pinned in the notification */
                                segment?: string;
                                /** @description Targets every one of which names the device */
                                and?: unknown[];
                                /** @description Targets any one of which names the device */
                                or?: unknown[];
                                /** @description A target that must not name the device */
                                not?: unknown;
                            })[];
                            /** @description A template by name or id, optionally `@<version>` (without: the newest). Instead of `title` and `body`; the version is pinned in the send */
                            template?: string;
                            /** @description The template's variables (not `device`: the device's own values are read under it) */
                            variables?: {
                                [key: string]: unknown;
                            };
                            /** @description A literal send's content by locale tag (`fr`, `fr-CA`), not Liquid: a device gets its locale's fields over the send's own (fallback `fr-CA` → `fr` → the send's own) */
                            localizations?: {
                                [key: string]: {
                                    /** @description Liquid: the title */
                                    title?: string;
                                    /** @description Liquid: the body */
                                    body?: string;
                                    /** @description Liquid: the deep link opened on tap */
                                    link_to?: string;
                                    /** @description Liquid: https URL of an image */
                                    image?: string;
                                    /** @description Custom key/value pairs for the app; each value is Liquid */
                                    data?: {
                                        [key: string]: string;
                                    };
                                };
                            };
                            /** @description An A/B send: each device of the audience gets one variant, by a hash of notification and device ids (instead of `title` and `body` or `template`) */
                            variants?: {
                                /** @description Unique within the send: `A`, `B`, `short-copy` */
                                name: string;
                                title?: string;
                                body?: string;
                                link_to?: string;
                                image?: string;
                                data?: {
                                    [key: string]: string;
                                };
                                /** @description A template by name or id, optionally `@<version>` (without: the newest). Instead of `title` and `body`; the version is pinned in the send */
                                template?: string;
                                /** @description The template's variables (not `device`: the device's own values are read under it) */
                                variables?: {
                                    [key: string]: unknown;
                                };
                            }[];
                            /** @description Share (%) of the audience that gets nothing: reported `held_out`, counted, for analytics */
                            holdout_percent?: number;
                            /** @description Without it every device takes part: no remainder, no decision */
                            test?: {
                                /** @description Share (%) of the audience outside the holdout that takes part; the rest (the remainder) gets the winner at `decide_after` */
                                percent: number;
                                /** @description ISO 8601 duration of days, hours, minutes, seconds after the send is due (`PT2H`; at most `P7D`) */
                                decide_after: string;
                                /** @enum {string} */
                                metric: "open_rate";
                            };
                            /** @description The variant the remainder gets when no variant wins significantly (default: the first) */
                            fallback?: string;
                            /** @description A test send: delivered like any other to the devices named (device_id, token or external_id targets only, at most 20), marked in its event, and left out of the notification list and its counts unless `include_tests=true` */
                            test_send?: boolean;
                            link_to?: string;
                            /** @description Groups notifications on the device: APNs thread-id, Android notification tag */
                            group?: string;
                            /** @description Custom key/value pairs for the app: APNs top-level keys, FCM `data` */
                            data?: {
                                [key: string]: string;
                            };
                            /** @description App icon badge: APNs `aps.badge`, FCM `android.notification.notification_count` */
                            badge?: number;
                            /** @description Sound file name or `default`: APNs `aps.sound`, FCM `android.notification.sound` */
                            sound?: string;
                            /** @description Seconds the provider keeps trying (≤ 28 days; 0: now or never): APNs `apns-expiration`, FCM `android.ttl` */
                            ttl?: number;
                            /**
                             * @description APNs `apns-priority` 10 / 5, FCM `android.priority`
                             * @enum {unknown}
                             */
                            priority?: "high" | "normal";
                            /** @description Replaces an earlier notification with the same id: APNs `apns-collapse-id` (≤ 64 bytes), FCM `android.collapse_key` */
                            collapse_id?: string;
                            /** @description Background (silent) push: APNs `aps.content-available` (push type `background`, priority 5 when title and body are empty), FCM data-only message */
                            content_available?: boolean;
                            /** @description Lets a Notification Service Extension modify it: APNs `aps.mutable-content` (no FCM equivalent) */
                            mutable_content?: boolean;
                            /** @description https URL of an image: APNs custom key `image`, FCM `notification.image` */
                            image?: string;
                            /** @description Actionable notification type: APNs `aps.category`, FCM `android.notification.click_action` */
                            category?: string;
                            /** @description Groups notifications (wins over `group`): APNs `aps.thread-id`, FCM `android.notification.tag` */
                            thread_id?: string;
                            /** @description Merged last into the APNs JSON body (objects key by key; other values replace), e.g. {"aps": {"interruption-level": "time-sensitive"}} */
                            apns?: {
                                [key: string]: unknown;
                            };
                            /** @description Merged last into the FCM message as firebase-admin builds it (its field names), e.g. {"android": {"notification": {"channelId": "sales"}}}; may not set the target (token, topic, condition) */
                            fcm?: {
                                [key: string]: unknown;
                            };
                            /** @description RFC 3339 instant to send at, at most 30 days ahead (a time up to a minute past sends now) */
                            send_at?: string;
                            /** @description Wall-clock time ("2026-12-01T09:00") at which each device gets it in its own `timezone` (devices without one: the project's default, else UTC); at most 30 days ahead. A zone whose time has already passed gets it at once */
                            send_at_local?: string;
                            /** @description Pushes per minute, across every delivery instance together, sent evenly (a paced campaign); absent: the project's default (`herald projects pace`), else as fast as Herald goes. PATCH changes it in flight */
                            rate_per_minute?: number;
                            /** @description Seconds from when the send is due (now, `send_at`, or each local-time slot) after which nothing more is sent: the devices left are reported `expired` */
                            max_duration?: number;
                            /** @description `transactional`: sent on the express lane ahead of the project's campaigns, never paced, not held by the project's budget (`herald projects budget`) for its first 11,000 devices per partition, and not subject to the project's frequency cap and quiet hours (`herald projects caps` / `quiet-hours`). `campaign`: paced (its own `rate_per_minute` or the project's default), held by the project's budget, capped (devices over the cap are reported `capped` or `deferred`) and kept quiet (devices in quiet hours are `deferred` to their end) from its first push. Absent: decided per device partition by size: a partition whose share of the audience fits its first step (1,000 devices) sends it as transactional, a larger one as campaign (docs/internals/campaign-control.md) */
                            priority_lane?: "transactional" | "campaign";
                        };
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
                            data: components["schemas"]["def-6"];
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
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
    "/api/v1/notifications/{id}/open": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Record that a device opened a notification (called by the device; no bearer key)
         * @description The device echoes `project_id` and its own token from the payload it received. 204 when the token belongs to a recipient; repeating an open answers 204 and records nothing new.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The notification id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        project_id: string;
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Recorded */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
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
    "/api/v1/overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The project at a glance: devices by platform and status, delivery outcomes and opens of the last 24 hours (or of a longer window)
         * @description Outcomes are counted per UTC hour by the projector (counters of the read model `notification_reports`, each batch once): `outcomes` adds up the current hour and the `window_hours - 1` before it, `outcomes_24h` the current hour and the 23 before it; `hours` lists the window's hours that have any. Test sends (`test_send`) are left out unless `include_tests=true`, as in the notification list.
         */
        get: {
            parameters: {
                query?: {
                    /** @description The window in hours, up to 720 (30 days): 24 (default), 168 (7 days), 720 (30 days) or any between */
                    hours?: number;
                    /** @description Count test sends' outcomes too; default false */
                    include_tests?: boolean;
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
                                devices: {
                                    ios: {
                                        active: number;
                                        inactive: number;
                                    };
                                    android: {
                                        active: number;
                                        inactive: number;
                                    };
                                    web: {
                                        active: number;
                                        inactive: number;
                                    };
                                    huawei: {
                                        active: number;
                                        inactive: number;
                                    };
                                };
                                /** @description The window counted (the `hours` asked for) */
                                window_hours: number;
                                /** @description Outcomes and opens over the window */
                                outcomes: {
                                    delivered: number;
                                    failed: number;
                                    invalid: number;
                                    cancelled: number;
                                    /** @description Opens recorded in the period */
                                    opened: number;
                                };
                                /** @description Outcomes and opens over the last 24 hours, whatever the window */
                                outcomes_24h: {
                                    delivered: number;
                                    failed: number;
                                    invalid: number;
                                    cancelled: number;
                                    /** @description Opens recorded in the period */
                                    opened: number;
                                };
                                /**
                                 * Format: date-time
                                 * @description Start of the oldest hour of the window
                                 */
                                since: string;
                                hours: {
                                    /** Format: date-time */
                                    hour: string;
                                    delivered: number;
                                    failed: number;
                                    invalid: number;
                                    cancelled: number;
                                    /** @description Opens recorded in the period */
                                    opened: number;
                                }[];
                            };
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
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
    "/api/v1/project": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The current project: its name and time zone */
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
                                id: string;
                                name: string;
                                /** @description The project's IANA time zone (UTC unless set): the console can show every time in it, and local-time sends use it for devices that registered no zone */
                                timezone: string;
                            };
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
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
        /**
         * Change the project's time zone
         * @description An IANA zone name (`Europe/Paris`, `UTC`), stored in its usual spelling (`europe/paris` → `Europe/Paris`); an unknown name or an offset is a 400 naming `timezone`.
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
                        /** @description IANA time zone name */
                        timezone: string;
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
                            data: {
                                id: string;
                                name: string;
                                /** @description The project's IANA time zone (UTC unless set): the console can show every time in it, and local-time sends use it for devices that registered no zone */
                                timezone: string;
                            };
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/segments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The segments of the project, oldest first */
        get: {
            parameters: {
                query?: {
                    /** @description Items per page; values above 100 are served as 100 */
                    limit?: number;
                    page?: number;
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
                            data: components["schemas"]["def-8"][];
                            pagination: {
                                /** @description Total number of matching items */
                                count: number;
                                /** @description The page served (1-based) */
                                page: number;
                                /** @description Number of pages, at least 1 */
                                pages: number;
                                /** @description 1-based position of the first item on this page; 0 when the page is empty */
                                from: number;
                                /** @description 1-based position of the last item on this page; 0 when the page is empty */
                                to: number;
                                /** @description Number of the last page (equals pages) */
                                last: number;
                            };
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Save a segment (its version 1)
         * @description The filter is one target (docs/guides/targets.md): a plain string, a typed target or an expression, and may name other segments (`{"segment": …}`) but never itself, directly or through others. A bad filter answers 422 naming the path (`filter.and[1].not: …`), a cycle or an unknown segment too. 409 when the project has a segment of that name (PUT makes a new version).
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
                        /** @description Unique in the project */
                        name: string;
                        /** @description Who receives the notification: the union of all targets (each OR'd), active devices only, each device once. A plain string names a device, a token's holder or a topic by its form; `{"topic": …}`, `{"device_id": …}`, `{"token": …}`, `{"external_id": …}`, `{"metadata": {...}}`, `{"platform": …}`, `{"locale": …}` and `{"timezone": …}` name one kind; `{"segment": …}` a saved segment; `{"and": [...]}`, `{"or": [...]}` and `{"not": …}` combine them */
                        filter: string | {
                            /** @description The subscribers of the topic with this name or id */
                            topic?: string;
                            /** @description Exactly the device with this id */
                            device_id?: string;
                            /** @description Exactly the device holding this push token */
                            token?: string;
                            /** @description A user's devices */
                            external_id?: string;
                            /** @description Devices whose metadata passes every key test: a string (equality), {"in": [...]}, {"exists": true|false} or {"ne": "..."} (an unset key is not equal) */
                            metadata?: {
                                [key: string]: unknown;
                            };
                            /** @description Devices of this platform (ios, android, web, huawei) */
                            platform?: string;
                            /** @description Devices whose BCP 47 locale is this one or starts with its subtags ("fr" matches fr, fr-CA) */
                            locale?: string;
                            /** @description Devices in this IANA time zone */
                            timezone?: string;
                            /** @description The saved segment with this id or name (POST /api/v1/segments): its latest version when the send is accepted, pinned in the notification */
                            segment?: string;
                            /** @description Targets every one of which names the device */
                            and?: unknown[];
                            /** @description Targets any one of which names the device */
                            or?: unknown[];
                            /** @description A target that must not name the device */
                            not?: unknown;
                        };
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
                            data: components["schemas"]["def-7"];
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
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
    "/api/v1/segments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A segment's newest version, with its filter */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The segment id */
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
                            data: components["schemas"]["def-7"];
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
            };
        };
        /**
         * Save a new version of a segment's filter
         * @description Versions are immutable: this makes version n+1 and answers it. Sends already accepted keep the version they pinned. The filter is one target (docs/guides/targets.md): a plain string, a typed target or an expression, and may name other segments (`{"segment": …}`) but never itself, directly or through others. A bad filter answers 422 naming the path (`filter.and[1].not: …`), a cycle or an unknown segment too.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The segment id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Who receives the notification: the union of all targets (each OR'd), active devices only, each device once. A plain string names a device, a token's holder or a topic by its form; `{"topic": …}`, `{"device_id": …}`, `{"token": …}`, `{"external_id": …}`, `{"metadata": {...}}`, `{"platform": …}`, `{"locale": …}` and `{"timezone": …}` name one kind; `{"segment": …}` a saved segment; `{"and": [...]}`, `{"or": [...]}` and `{"not": …}` combine them */
                        filter: string | {
                            /** @description The subscribers of the topic with this name or id */
                            topic?: string;
                            /** @description Exactly the device with this id */
                            device_id?: string;
                            /** @description Exactly the device holding this push token */
                            token?: string;
                            /** @description A user's devices */
                            external_id?: string;
                            /** @description Devices whose metadata passes every key test: a string (equality), {"in": [...]}, {"exists": true|false} or {"ne": "..."} (an unset key is not equal) */
                            metadata?: {
                                [key: string]: unknown;
                            };
                            /** @description Devices of this platform (ios, android, web, huawei) */
                            platform?: string;
                            /** @description Devices whose BCP 47 locale is this one or starts with its subtags ("fr" matches fr, fr-CA) */
                            locale?: string;
                            /** @description Devices in this IANA time zone */
                            timezone?: string;
                            /** @description The saved segment with this id or name (POST /api/v1/segments): its latest version when the send is accepted, pinned in the notification */
                            segment?: string;
                            /** @description Targets every one of which names the device */
                            and?: unknown[];
                            /** @description Targets any one of which names the device */
                            or?: unknown[];
                            /** @description A target that must not name the device */
                            not?: unknown;
                        };
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
                            data: components["schemas"]["def-7"];
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
            };
        };
        post?: never;
        /**
         * Delete a segment and its versions
         * @description Sends already accepted keep the version they pinned (in their own event). New sends naming it, or naming a segment that references it, answer 422.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The segment id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/segments/{id}/versions/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One version of a segment, with its filter */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The segment id */
                    id: string;
                    version: number;
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
                            data: components["schemas"]["def-7"];
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
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
    "/api/v1/segments/{id}/count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * How many active devices the segment holds now, by platform
         * @description The dry run's answer for a send to `{"segment": id}`: the segment's newest version, evaluated with the audience predicate on the devices read model.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The segment id */
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
                            data: {
                                total: number;
                                by_platform: {
                                    ios: number;
                                    android: number;
                                    /** @description Browsers (Web Push) */
                                    web: number;
                                    /** @description Android devices with Huawei Mobile Services (Push Kit) */
                                    huawei: number;
                                };
                            };
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
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
    "/api/v1/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The templates of the project, oldest first */
        get: {
            parameters: {
                query?: {
                    /** @description Items per page; values above 100 are served as 100 */
                    limit?: number;
                    page?: number;
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
                            data: components["schemas"]["def-10"][];
                            pagination: {
                                /** @description Total number of matching items */
                                count: number;
                                /** @description The page served (1-based) */
                                page: number;
                                /** @description Number of pages, at least 1 */
                                pages: number;
                                /** @description 1-based position of the first item on this page; 0 when the page is empty */
                                from: number;
                                /** @description 1-based position of the last item on this page; 0 when the page is empty */
                                to: number;
                                /** @description Number of the last page (equals pages) */
                                last: number;
                            };
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a template (its version 1)
         * @description Checked before it is saved: every locale's fields parse as strict Liquid, and every locale renders with sample values. A bad template answers 422 with one message per problem, each naming the locale, the field and the line: `content.fr.body line 2: undefined variable: name`. 409 when the project has a template of that name (PUT makes a new version).
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
                        /** @description Unique in the project; no `@` (it separates a version in a reference) */
                        name: string;
                        /** @description `default` and any locale tags (`fr`, `fr-CA`, `zh-Hant-TW`): a device gets its locale's content, else its language's (`fr-CA` → `fr`), else `default`. At most 50 locales and 64000 bytes in all */
                        content: {
                            [key: string]: {
                                /** @description Liquid: the title */
                                title: string;
                                /** @description Liquid: the body */
                                body: string;
                                /** @description Liquid: the deep link opened on tap */
                                link_to?: string;
                                /** @description Liquid: https URL of an image */
                                image?: string;
                                /** @description Custom key/value pairs for the app; each value is Liquid */
                                data?: {
                                    [key: string]: string;
                                };
                                /** @description Merged last into the APNs JSON body (objects key by key; other values replace), e.g. {"aps": {"interruption-level": "time-sensitive"}} */
                                apns?: {
                                    [key: string]: unknown;
                                };
                                /** @description Merged last into the FCM message as firebase-admin builds it (its field names), e.g. {"android": {"notification": {"channelId": "sales"}}}; may not set the target (token, topic, condition) */
                                fcm?: {
                                    [key: string]: unknown;
                                };
                            };
                        };
                        /** @description Values the save-time check renders every locale with, over the ones Herald makes up ("sample" for every value a template reads): give them where a made-up string cannot stand in (a list looped over, a number divided) */
                        samples?: {
                            /** @description Sample values of the variables a send will give */
                            variables?: {
                                [key: string]: unknown;
                            };
                            /** @description Sample device values (`device.metadata.*`, `device.locale`, `device.timezone`) */
                            device?: {
                                /** @description Keys: 1–64 characters, without '.' or control characters, not starting with '$'; at most 64 entries; values at most 1024 characters */
                                metadata?: {
                                    [key: string]: string;
                                };
                                locale?: string;
                                timezone?: string;
                            };
                        };
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
                            data: components["schemas"]["def-9"];
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
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
    "/api/v1/templates/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A template's newest version, with its content */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The template id */
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
                            data: components["schemas"]["def-9"];
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
            };
        };
        /**
         * Save a new version of a template's content
         * @description Versions are immutable: this makes version n+1 and answers it; sends name a version with `name@n` (without one: the newest). A bad template answers 422 with one message per problem, each naming the locale, the field and the line: `content.fr.body line 2: undefined variable: name`.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The template id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description `default` and any locale tags (`fr`, `fr-CA`, `zh-Hant-TW`): a device gets its locale's content, else its language's (`fr-CA` → `fr`), else `default`. At most 50 locales and 64000 bytes in all */
                        content: {
                            [key: string]: {
                                /** @description Liquid: the title */
                                title: string;
                                /** @description Liquid: the body */
                                body: string;
                                /** @description Liquid: the deep link opened on tap */
                                link_to?: string;
                                /** @description Liquid: https URL of an image */
                                image?: string;
                                /** @description Custom key/value pairs for the app; each value is Liquid */
                                data?: {
                                    [key: string]: string;
                                };
                                /** @description Merged last into the APNs JSON body (objects key by key; other values replace), e.g. {"aps": {"interruption-level": "time-sensitive"}} */
                                apns?: {
                                    [key: string]: unknown;
                                };
                                /** @description Merged last into the FCM message as firebase-admin builds it (its field names), e.g. {"android": {"notification": {"channelId": "sales"}}}; may not set the target (token, topic, condition) */
                                fcm?: {
                                    [key: string]: unknown;
                                };
                            };
                        };
                        /** @description Values the save-time check renders every locale with, over the ones Herald makes up ("sample" for every value a template reads): give them where a made-up string cannot stand in (a list looped over, a number divided) */
                        samples?: {
                            /** @description Sample values of the variables a send will give */
                            variables?: {
                                [key: string]: unknown;
                            };
                            /** @description Sample device values (`device.metadata.*`, `device.locale`, `device.timezone`) */
                            device?: {
                                /** @description Keys: 1–64 characters, without '.' or control characters, not starting with '$'; at most 64 entries; values at most 1024 characters */
                                metadata?: {
                                    [key: string]: string;
                                };
                                locale?: string;
                                timezone?: string;
                            };
                        };
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
                            data: components["schemas"]["def-9"];
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
            };
        };
        post?: never;
        /**
         * Delete a template and its versions
         * @description Sends already accepted still render it: each carries the version it uses in its own event. New sends naming it answer 422. A template made again under the same name numbers its versions on from where this one stopped.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The template id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/templates/{id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A template's versions, newest first */
        get: {
            parameters: {
                query?: {
                    /** @description Items per page; values above 100 are served as 100 */
                    limit?: number;
                    page?: number;
                };
                header?: never;
                path: {
                    /** @description The template id */
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
                            data: {
                                version: number;
                                /** Format: date-time */
                                created_at: string;
                            }[];
                            pagination: {
                                /** @description Total number of matching items */
                                count: number;
                                /** @description The page served (1-based) */
                                page: number;
                                /** @description Number of pages, at least 1 */
                                pages: number;
                                /** @description 1-based position of the first item on this page; 0 when the page is empty */
                                from: number;
                                /** @description 1-based position of the last item on this page; 0 when the page is empty */
                                to: number;
                                /** @description Number of the last page (equals pages) */
                                last: number;
                            };
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
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
    "/api/v1/templates/{id}/versions/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One version of a template, with its content */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The template id */
                    id: string;
                    version: number;
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
                            data: components["schemas"]["def-9"];
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
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
    "/api/v1/topics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List topics of the current project
         * @description Topics in creation order (then id). A page past the last one is empty. `name` finds one topic by its name (a list of at most one).
         */
        get: {
            parameters: {
                query?: {
                    /** @description Items per page; values above 100 are served as 100 */
                    limit?: number;
                    page?: number;
                    /** @description Only the topic with exactly this name */
                    name?: string;
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
                            data: components["schemas"]["def-11"][];
                            pagination: {
                                /** @description Total number of matching items */
                                count: number;
                                /** @description The page served (1-based) */
                                page: number;
                                /** @description Number of pages, at least 1 */
                                pages: number;
                                /** @description 1-based position of the first item on this page; 0 when the page is empty */
                                from: number;
                                /** @description 1-based position of the last item on this page; 0 when the page is empty */
                                to: number;
                                /** @description Number of the last page (equals pages) */
                                last: number;
                            };
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a topic (idempotent by name)
         * @description The topic id is derived from (project, name): creating an existing topic returns it again (a device-created one becomes the project's). Devices subscribe by naming it when they register. Devices create topics only where the project allows it (herald projects device-topics). A project creates at most 10000 topics; device-created ones are counted apart (at most 1000). A name of an id's form (a UUID) or a device token's form (APNs: 64 to 200 hex digits; FCM: letters, digits, "-", "_" with a ":") is refused with 422: a plain target string of that form always names a device, never a topic.
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
                            data: components["schemas"]["def-11"];
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
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
    "/api/v1/topics/reclaim": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Delete the device-created topics no active device subscribes to
         * @description Frees room under the device-created topic quota: every device-created topic of the project with no active subscriber is deleted (TopicDeleted). The project's own topics are never touched. Answers how many were deleted, and their names.
         */
        post: {
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
                                deleted: number;
                                names: string[];
                            };
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
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
    "/api/v1/topics/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A topic of the current project
         * @description 404 for an id that is not one of the project's topics (or was deleted).
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The topic id */
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
                            data: components["schemas"]["def-11"];
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete a topic
         * @description Publishes TopicDeleted: the topic is no longer listed and no target resolves to it; registrations naming it are refused unless devices may create topics. Devices keep it in their `topics` until they register again: creating it again (same name, same id) reaches them again. 404 when it does not exist.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The topic id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's webhooks, with lag and failures */
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
                            data: components["schemas"]["def-12"][];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Register a webhook
         * @description The endpoint receives the chosen event types of the project, signed (docs/webhooks.md), from now on. The answer holds the signing secret, shown once. A project has at most 10 webhooks by default (WEBHOOKS_PER_PROJECT).
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
                        /** @description https URL naming its host (no IP address; http and a loopback address only in local mode), at most 2048 characters */
                        url: string;
                        event_types?: ("DeliveryReported" | "NotificationOpened" | "DeviceDeactivated" | "DeviceUnregistered" | "NotificationRequested" | "NotificationDispatched" | "NotificationCancelled" | "NotificationExpired" | "NotificationSteered" | "AudienceEstimated" | "VariantDecided" | "LiveActivityRequested" | "LiveActivityReported")[];
                        /** @description Only this notification's events (device events are not a notification's: they are left out) */
                        notification_id?: string | null;
                        /** @description Optional batching: a request once max_events are waiting or the oldest has waited max_wait_ms */
                        batch?: {
                            /** @description Events per request at most (1: one event per request) */
                            max_events: number;
                            /** @description How long the first waiting event may wait for others */
                            max_wait_ms: number;
                        };
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
                            data: components["schemas"]["def-12"];
                            /** @description The signing secret: shown here once, never again */
                            secret: string;
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
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
    "/api/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A webhook of the current project
         * @description 404 for an id that is not one of the project's webhooks.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The webhook id */
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
                            data: components["schemas"]["def-12"];
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete a webhook
         * @description Deliveries stop within seconds (a request in flight may still arrive).
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The webhook id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change, pause, resume a webhook, or rotate its secret
         * @description Fields given replace the stored ones. `paused: true` pauses it, `paused: false` resumes it where it stopped. `rotate_secret: true` makes a new secret (in the answer, once); the previous one keeps signing beside it for `previous_secret_ttl_s` (default 86400), so receivers can switch without missing a request.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The webhook id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description https URL naming its host (no IP address; http and a loopback address only in local mode), at most 2048 characters */
                        url?: string;
                        event_types?: ("DeliveryReported" | "NotificationOpened" | "DeviceDeactivated" | "DeviceUnregistered" | "NotificationRequested" | "NotificationDispatched" | "NotificationCancelled" | "NotificationExpired" | "NotificationSteered" | "AudienceEstimated" | "VariantDecided" | "LiveActivityRequested" | "LiveActivityReported")[];
                        /** @description Only this notification's events (device events are not a notification's: they are left out) */
                        notification_id?: string | null;
                        /** @description Optional batching: a request once max_events are waiting or the oldest has waited max_wait_ms */
                        batch?: {
                            /** @description Events per request at most (1: one event per request) */
                            max_events: number;
                            /** @description How long the first waiting event may wait for others */
                            max_wait_ms: number;
                        };
                        rotate_secret?: boolean;
                        previous_secret_ttl_s?: number;
                        /** @description true pauses the webhook (within seconds: nothing more is posted, its position is kept); false resumes it from that position, so it receives what it missed */
                        paused?: boolean;
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
                            data: components["schemas"]["def-12"];
                            /** @description The new secret, after rotate_secret: shown once */
                            secret?: string;
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/webhooks/{id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deliver again from a time or an earlier position
         * @description The webhook goes back to `from` (the first records written at or after that time) or to `position` (one it showed earlier in GET: not past its current position) and delivers everything of its event types from there again, with the same event ids: receivers that dedupe by event id see each event once. Takes effect within seconds (`replay_pending` until then).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The webhook id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: date-time
                         * @description A time (RFC 3339)
                         */
                        from?: string;
                        /** @description Next offset to deliver, per topic, per partition (as GET shows it) */
                        position?: {
                            [key: string]: {
                                [key: string]: number;
                            };
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["def-12"];
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
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
    "/api/v1/webpush/public-key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The project's Web Push application server key (called by a web page; no bearer key)
         * @description The project's current VAPID public key, for `pushManager.subscribe`. Public by nature: every browser that subscribes is given it. Answers 404 when the project does not exist or has no Web Push keys (`herald providers webpush <project-id> --generate`). Rate-limited per address and per project like the other device-facing routes; answers may be up to 5 seconds old after a rotation.
         */
        get: {
            parameters: {
                query: {
                    /** @description The project whose application server key to give */
                    project_id: string;
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
                                /** @description The project's current VAPID public key: an uncompressed P-256 point, base64url (pass it to `pushManager.subscribe({ applicationServerKey })`) */
                                public_key: string;
                                /** @description Its id; a web device registered now is sent to with this key for as long as its subscription lives, through key rotations */
                                key_id: string;
                            };
                        };
                    };
                };
                /** @description Error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                431: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
                        };
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Messages naming the field and the rule */
                            errors: string[];
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
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * ErrorBody
         * @description Error
         */
        "def-0": {
            /** @description Messages naming the field and the rule */
            errors: string[];
        };
        /** Pagination */
        "def-1": {
            /** @description Total number of matching items */
            count: number;
            /** @description The page served (1-based) */
            page: number;
            /** @description Number of pages, at least 1 */
            pages: number;
            /** @description 1-based position of the first item on this page; 0 when the page is empty */
            from: number;
            /** @description 1-based position of the last item on this page; 0 when the page is empty */
            to: number;
            /** @description Number of the last page (equals pages) */
            last: number;
        };
        /** Receipt */
        "def-2": {
            notification_id: string;
            device_id: string;
            /** @enum {unknown} */
            provider: "apns" | "fcm" | "webpush" | "hms";
            /**
             * @description `delivered`: accepted by the provider; `failed`: not accepted after retries; `invalid`: token rejected (device deactivated); `cancelled`: not sent (cancelled); `expired`: not sent (`max_duration` ran out; reason `MaxDurationExceeded`); `capped`: not sent (a frequency cap with `on_cap: drop`; reason `FrequencyCap`, see `rule`); `deferred`: held by a frequency cap (`on_cap: defer`) or quiet hours until `until`, then replaced by its real outcome; `held_out`: not sent (in an A/B send's holdout)
             * @enum {unknown}
             */
            outcome: "delivered" | "failed" | "invalid" | "cancelled" | "expired" | "capped" | "deferred" | "held_out";
            /** @description The provider's reason code (or Herald's: AttemptsExhausted, NoApnsCredentials, …) when not delivered */
            reason: string | null;
            /** @description Sends tried for this device */
            attempts: number | null;
            /** @description capped / deferred (and expired after a deferral): the rule that applied, e.g. `cap 3/86400s per user` or `quiet 22:00-08:00 Europe/Paris` */
            rule?: string;
            /**
             * Format: date-time
             * @description deferred: when it goes out
             */
            until?: string;
            /** @description An A/B send: the variant the device got (none for `held_out`) */
            variant?: string;
            /** @description A template or localised send: the content locale the device got */
            locale?: string;
            delivered_at: string | null;
            opened_at: string | null;
            /**
             * Format: date-time
             * @description When the outcome was recorded
             */
            reported_at: string;
        };
        /** Device */
        "def-3": {
            id: string;
            /** @description The APNs, FCM or HMS token; for a web device, its push subscription endpoint */
            token: string;
            /** @enum {unknown} */
            platform: "ios" | "android" | "web" | "huawei";
            /** @enum {unknown} */
            status: "active" | "inactive";
            /** @description Keys: 1–64 characters, without '.' or control characters, not starting with '$'; at most 64 entries; values at most 1024 characters */
            metadata: {
                [key: string]: string;
            };
            /** @description Keys: 1–64 characters, without '.' or control characters, not starting with '$'; at most 64 entries; values at most 1024 characters */
            identifiers: {
                [key: string]: string;
            };
            /** @description Ids of the topics the device is subscribed to */
            topics: string[];
            /** @description The project's id of the user who owns the device */
            external_id: string | null;
            /** @description IANA time zone name */
            timezone: string | null;
            /** @description BCP 47 language tag, canonical (fr-CA); null: none registered */
            locale?: string | null;
            /** @description Why it is inactive: the provider rejected its token (`provider` set), or the project unregistered it (reason `Unregistered`) */
            deactivation: {
                reason: string;
                provider?: string;
                /** Format: date-time */
                at: string;
            } | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** Draft */
        "def-4": {
            /** Format: uuid */
            id: string;
            name: string;
            /** @description The send body being composed, as POST /api/v1/notifications takes it (`{"notification": …}`). Kept as given (at most 64 KB as JSON): a draft need not be a valid send yet; sending it checks it. */
            content: {
                [key: string]: unknown;
            };
            /** @description The notification it was duplicated from, or null */
            source_notification_id: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** DraftSummary */
        "def-5": {
            /** Format: uuid */
            id: string;
            name: string;
            source_notification_id: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** Notification */
        "def-6": {
            /** Format: uuid */
            id: string;
            title: string;
            body: string;
            targets: (string | {
                /** @description The subscribers of the topic with this name or id */
                topic?: string;
                /** @description Exactly the device with this id */
                device_id?: string;
                /** @description Exactly the device holding this push token */
                token?: string;
                /** @description A user's devices */
                external_id?: string;
                /** @description Devices whose metadata passes every key test: a string (equality), {"in": [...]}, {"exists": true|false} or {"ne": "..."} (an unset key is not equal) */
                metadata?: {
                    [key: string]: unknown;
                };
                /** @description Devices of this platform (ios, android, web, huawei) */
                platform?: string;
                /** @description Devices whose BCP 47 locale is this one or starts with its subtags ("fr" matches fr, fr-CA) */
                locale?: string;
                /** @description Devices in this IANA time zone */
                timezone?: string;
                /** @description The saved segment with this id or name (POST /api/v1/segments): its latest version when the send is accepted, pinned in the notification */
                segment?: string;
                /** @description Targets every one of which names the device */
                and?: unknown[];
                /** @description Targets any one of which names the device */
                or?: unknown[];
                /** @description A target that must not name the device */
                not?: unknown;
            })[];
            link_to: string | null;
            group: string | null;
            /**
             * @description `scheduled`: held until `send_at` / `send_at_local`; `queued`: accepted, audience not yet resolved; `sending`: dispatched, outcomes outstanding; `paused`: held by PATCH `{"state": "paused"}` until resumed; `sent`: every targeted device has an outcome (`expired` devices included: `max_duration` ran out); `cancelled`: cancelled before it finished; `expired`: too old to send
             * @enum {unknown}
             */
            status: "scheduled" | "queued" | "sending" | "paused" | "sent" | "cancelled" | "expired";
            /** Format: date-time */
            created_at: string;
            counts?: {
                /** @description Active devices the audience resolved to (so far, while dispatching) */
                targeted: number;
                /** @description Devices a provider answered for: delivered + failed + invalid */
                sent: number;
                delivered: number;
                failed: number;
                /** @description Token rejected by the provider; the device was deactivated */
                invalid: number;
                /** @description Not sent: cancelled before its batch went out */
                cancelled: number;
                /** @description Not sent: `max_duration` ran out before its batch went out */
                expired: number;
                /** @description Not sent: a project frequency cap with `on_cap: drop` (campaign sends only) */
                capped: number;
                /** @description Held now by a frequency cap (`on_cap: defer`) or quiet hours; each moves to its real outcome when released */
                deferred: number;
                /** @description Not sent: in an A/B send's holdout */
                held_out?: number;
                opened: number;
            };
            /** @description `webpush` once the notification targeted a web device, `hms` a Huawei device */
            counts_by_provider?: {
                apns: {
                    /** @description Active devices the audience resolved to (so far, while dispatching) */
                    targeted: number;
                    /** @description Devices a provider answered for: delivered + failed + invalid */
                    sent: number;
                    delivered: number;
                    failed: number;
                    /** @description Token rejected by the provider; the device was deactivated */
                    invalid: number;
                    /** @description Not sent: cancelled before its batch went out */
                    cancelled: number;
                    /** @description Not sent: `max_duration` ran out before its batch went out */
                    expired: number;
                    /** @description Not sent: a project frequency cap with `on_cap: drop` (campaign sends only) */
                    capped: number;
                    /** @description Held now by a frequency cap (`on_cap: defer`) or quiet hours; each moves to its real outcome when released */
                    deferred: number;
                    /** @description Not sent: in an A/B send's holdout */
                    held_out?: number;
                    opened: number;
                };
                fcm: {
                    /** @description Active devices the audience resolved to (so far, while dispatching) */
                    targeted: number;
                    /** @description Devices a provider answered for: delivered + failed + invalid */
                    sent: number;
                    delivered: number;
                    failed: number;
                    /** @description Token rejected by the provider; the device was deactivated */
                    invalid: number;
                    /** @description Not sent: cancelled before its batch went out */
                    cancelled: number;
                    /** @description Not sent: `max_duration` ran out before its batch went out */
                    expired: number;
                    /** @description Not sent: a project frequency cap with `on_cap: drop` (campaign sends only) */
                    capped: number;
                    /** @description Held now by a frequency cap (`on_cap: defer`) or quiet hours; each moves to its real outcome when released */
                    deferred: number;
                    /** @description Not sent: in an A/B send's holdout */
                    held_out?: number;
                    opened: number;
                };
                webpush?: {
                    /** @description Active devices the audience resolved to (so far, while dispatching) */
                    targeted: number;
                    /** @description Devices a provider answered for: delivered + failed + invalid */
                    sent: number;
                    delivered: number;
                    failed: number;
                    /** @description Token rejected by the provider; the device was deactivated */
                    invalid: number;
                    /** @description Not sent: cancelled before its batch went out */
                    cancelled: number;
                    /** @description Not sent: `max_duration` ran out before its batch went out */
                    expired: number;
                    /** @description Not sent: a project frequency cap with `on_cap: drop` (campaign sends only) */
                    capped: number;
                    /** @description Held now by a frequency cap (`on_cap: defer`) or quiet hours; each moves to its real outcome when released */
                    deferred: number;
                    /** @description Not sent: in an A/B send's holdout */
                    held_out?: number;
                    opened: number;
                };
                hms?: {
                    /** @description Active devices the audience resolved to (so far, while dispatching) */
                    targeted: number;
                    /** @description Devices a provider answered for: delivered + failed + invalid */
                    sent: number;
                    delivered: number;
                    failed: number;
                    /** @description Token rejected by the provider; the device was deactivated */
                    invalid: number;
                    /** @description Not sent: cancelled before its batch went out */
                    cancelled: number;
                    /** @description Not sent: `max_duration` ran out before its batch went out */
                    expired: number;
                    /** @description Not sent: a project frequency cap with `on_cap: drop` (campaign sends only) */
                    capped: number;
                    /** @description Held now by a frequency cap (`on_cap: defer`) or quiet hours; each moves to its real outcome when released */
                    deferred: number;
                    /** @description Not sent: in an A/B send's holdout */
                    held_out?: number;
                    opened: number;
                };
            };
            /** @description An A/B send: counts by variant name, `holdout` (reported `held_out`) and `remainder` (sent the chosen variant after the decision) */
            counts_by_variant?: {
                [key: string]: {
                    /** @description Active devices the audience resolved to (so far, while dispatching) */
                    targeted: number;
                    /** @description Devices a provider answered for: delivered + failed + invalid */
                    sent: number;
                    delivered: number;
                    failed: number;
                    /** @description Token rejected by the provider; the device was deactivated */
                    invalid: number;
                    /** @description Not sent: cancelled before its batch went out */
                    cancelled: number;
                    /** @description Not sent: `max_duration` ran out before its batch went out */
                    expired: number;
                    /** @description Not sent: a project frequency cap with `on_cap: drop` (campaign sends only) */
                    capped: number;
                    /** @description Held now by a frequency cap (`on_cap: defer`) or quiet hours; each moves to its real outcome when released */
                    deferred: number;
                    /** @description Not sent: in an A/B send's holdout */
                    held_out?: number;
                    opened: number;
                };
            };
            /** @description An A/B send with a test share, once `decide_after` passed */
            decision?: {
                /** @enum {string} */
                metric: "open_rate";
                arms: {
                    variant: string;
                    delivered: number;
                    opened: number;
                    rate: number | null;
                }[];
                best: string;
                runner_up?: string;
                /** @description best's open rate minus the runner-up's */
                difference?: number;
                /** @description The difference's 95 % confidence interval */
                interval?: number[];
                z?: number;
                /** @description Two-sided, two-proportion z-test */
                p_value?: number;
                significant: boolean;
                /** @description The variant sent to the remainder */
                chosen: string;
                /**
                 * @description `significant`: the best won; otherwise the fallback was sent
                 * @enum {unknown}
                 */
                reason: "significant" | "not_significant" | "no_data";
            };
            /** @description Present (true) on a test send */
            test_send?: boolean;
            /**
             * Format: uuid
             * @description An edit of a scheduled send: the notification this one replaced (cancelled)
             */
            replaces?: string;
            /**
             * Format: uuid
             * @description A scheduled send that was edited (POST …/replace): the notification that replaced it (this one is cancelled)
             */
            replaced_by?: string;
            /** @description When the audience was first resolved and queued */
            dispatched_at?: string | null;
            /** @description When it became sent, cancelled or expired */
            finished_at?: string | null;
            /** @description The lane the request asked for; null: decided by size per device partition (a partition whose share fits 1,000 devices goes transactional) */
            priority_lane?: "transactional" | "campaign" | null;
            /** @description Progress of a paced or paused send: its current rate, progress and ETA */
            pace?: {
                /** @description The pace in effect (requested, or set by the latest PATCH); null: unpaced */
                rate_per_minute: number | null;
                paused: boolean;
                /** @description The send's audience: the devices of the partitions already dispatched plus each other partition's count by its fan-out at its second step (AudienceEstimated; an upper bound for several or overlapping targets). Null until a partition counted. What progress and ETA are measured against */
                audience_estimate: number | null;
                /** @description Devices with an outcome / the audience */
                progress: number | null;
                /** @description When the last push should leave at the current pace (null: paused, unpaced or finished) */
                eta: string | null;
            };
            /** @description The `notification` object as the client sent it (push options and schedule included) */
            request?: {
                title: string;
                body: string;
                targets: (string | {
                    /** @description The subscribers of the topic with this name or id */
                    topic?: string;
                    /** @description Exactly the device with this id */
                    device_id?: string;
                    /** @description Exactly the device holding this push token */
                    token?: string;
                    /** @description A user's devices */
                    external_id?: string;
                    /** @description Devices whose metadata passes every key test: a string (equality), {"in": [...]}, {"exists": true|false} or {"ne": "..."} (an unset key is not equal) */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description Devices of this platform (ios, android, web, huawei) */
                    platform?: string;
                    /** @description Devices whose BCP 47 locale is this one or starts with its subtags ("fr" matches fr, fr-CA) */
                    locale?: string;
                    /** @description Devices in this IANA time zone */
                    timezone?: string;
                    /** @description The saved segment with this id or name (POST /api/v1/segments): its latest version when the send is accepted, pinned in the notification */
                    segment?: string;
                    /** @description Targets every one of which names the device */
                    and?: unknown[];
                    /** @description Targets any one of which names the device */
                    or?: unknown[];
                    /** @description A target that must not name the device */
                    not?: unknown;
                })[];
            } & {
                [key: string]: unknown;
            };
        };
        /** SegmentVersion */
        "def-7": {
            /**
             * Format: uuid
             * @description The segment id (derived from the project and the name)
             */
            id: string;
            name: string;
            /** @description This version; versions never change */
            version: number;
            /** @description Who receives the notification: the union of all targets (each OR'd), active devices only, each device once. A plain string names a device, a token's holder or a topic by its form; `{"topic": …}`, `{"device_id": …}`, `{"token": …}`, `{"external_id": …}`, `{"metadata": {...}}`, `{"platform": …}`, `{"locale": …}` and `{"timezone": …}` name one kind; `{"segment": …}` a saved segment; `{"and": [...]}`, `{"or": [...]}` and `{"not": …}` combine them */
            filter: string | {
                /** @description The subscribers of the topic with this name or id */
                topic?: string;
                /** @description Exactly the device with this id */
                device_id?: string;
                /** @description Exactly the device holding this push token */
                token?: string;
                /** @description A user's devices */
                external_id?: string;
                /** @description Devices whose metadata passes every key test: a string (equality), {"in": [...]}, {"exists": true|false} or {"ne": "..."} (an unset key is not equal) */
                metadata?: {
                    [key: string]: unknown;
                };
                /** @description Devices of this platform (ios, android, web, huawei) */
                platform?: string;
                /** @description Devices whose BCP 47 locale is this one or starts with its subtags ("fr" matches fr, fr-CA) */
                locale?: string;
                /** @description Devices in this IANA time zone */
                timezone?: string;
                /** @description The saved segment with this id or name (POST /api/v1/segments): its latest version when the send is accepted, pinned in the notification */
                segment?: string;
                /** @description Targets every one of which names the device */
                and?: unknown[];
                /** @description Targets any one of which names the device */
                or?: unknown[];
                /** @description A target that must not name the device */
                not?: unknown;
            };
            /** Format: date-time */
            created_at: string;
        };
        /** SegmentSummary */
        "def-8": {
            /** Format: uuid */
            id: string;
            name: string;
            latest_version: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** TemplateVersion */
        "def-9": {
            /**
             * Format: uuid
             * @description The template id (derived from the project and the name)
             */
            id: string;
            name: string;
            /** @description This version; versions never change */
            version: number;
            /** @description Content by locale, as saved */
            content: {
                [key: string]: unknown;
            };
            /** Format: date-time */
            created_at: string;
        };
        /** TemplateSummary */
        "def-10": {
            /** Format: uuid */
            id: string;
            name: string;
            latest_version: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** Topic */
        "def-11": {
            id: string;
            name: string;
            /** @description Active devices subscribed to the topic (an extra beyond the spec) */
            subscribers: number;
            /**
             * @description `project`: created with the API key; `device`: created by a device registration (only where the project allows it; self-asserted)
             * @enum {unknown}
             */
            origin: "project" | "device";
            /** Format: date-time */
            created_at: string;
        };
        /** Webhook */
        "def-12": {
            id: string;
            url: string;
            event_types: ("DeliveryReported" | "NotificationOpened" | "DeviceDeactivated" | "DeviceUnregistered" | "NotificationRequested" | "NotificationDispatched" | "NotificationCancelled" | "NotificationExpired" | "NotificationSteered" | "AudienceEstimated" | "VariantDecided" | "LiveActivityRequested" | "LiveActivityReported")[];
            notification_id: string | null;
            batch: {
                max_events: number;
                max_wait_ms: number;
            };
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description While the previous secret still signs (after a rotation): requests carry a signature under each */
            secret_rotation: {
                /** Format: date-time */
                previous_expires_at: string;
            } | null;
            /** @description null until the dispatcher first starts the webhook */
            position: {
                [key: string]: {
                    [key: string]: number;
                };
            } | null;
            /** @description A replay was asked and the dispatcher has not moved to it yet */
            replay_pending: boolean;
            /** @description Paused: nothing is posted; the position stays where it stopped and delivery goes on from there when resumed */
            paused: boolean;
            status: {
                /** @description Log records between the position and the end (all projects: what is left to read), at the last measure */
                lag: number;
                delivered_events: number;
                failed_attempts: number;
                dead_letters: number;
                last_success_at: string | null;
                last_failure: {
                    /** Format: date-time */
                    at: string;
                    error: string;
                } | null;
                updated_at: string | null;
            };
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
