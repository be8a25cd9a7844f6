// Generated from openapi.json by openapi-typescript: do not edit.
// Regenerate with `pnpm --filter @armory/client generate`.

export interface paths {
    "/capabilities/probe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Probes an external driver (default agent-browser) with identity verification. */
        get: operations["capabilities.probe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/codemode/execute": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** @description Runs JavaScript in the code-mode sandbox with the server's host tools (skills, channel, page) as globals. */
        post: operations["codemode.execute"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["health.health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/skills": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Loads the server's skill roots and returns the full load report: skills, dropped documents, ignored autoInject blocks, shadowed names and warnings. */
        get: operations["skills.list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/skills/arm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** @description The skills that arm for a prompt (and a page URL and file paths), in load order. */
        post: operations["skills.arm"];
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
        Armed: {
            keywords: string[];
            name: string;
            paths: string[];
            urls: string[];
        };
        ArmRequest: {
            paths?: string[];
            prompt: string;
            url?: string;
        };
        BadRequestProblemEncoded: {
            detail?: string;
            errors?: {
                message: string;
                path: (string | number | ("Infinity" | "-Infinity" | "NaN"))[];
            }[];
            instance?: string;
            /** @enum {number} */
            status?: 400;
            /** @enum {string} */
            title?: "Bad Request";
            /** @enum {string} */
            type: "about:blank";
        };
        ChannelTranscript: {
            id: string;
            messages: string[];
        };
        ExecuteRequest: {
            code: string;
            globals?: string[];
            timeoutMs?: number;
        };
        ExecuteResponse: {
            calls: components["schemas"]["ToolCallRecord"][];
            channel: components["schemas"]["ChannelTranscript"];
            error?: {
                _tag: string;
                message: string;
            };
            logs: string[];
            result?: unknown;
            /** @enum {string} */
            status: "completed" | "error" | "timeout";
            truncated?: boolean;
        };
        Health: {
            /** @enum {string} */
            status: "ok";
            version: string;
        };
        InternalServerErrorProblemEncoded: {
            detail?: string;
            instance?: string;
            /** @enum {number} */
            status?: 500;
            /** @enum {string} */
            title?: "Internal Server Error";
            /** @enum {string} */
            type: "about:blank";
        };
        InvalidGlobalsEncoded: {
            /** @enum {string} */
            _tag: "InvalidGlobals";
            message: string;
            name: string;
            rule: string;
        };
        MisdirectedRequestEncoded: {
            /** @enum {string} */
            _tag: "MisdirectedRequest";
            host: string;
            message: string;
        };
        PayloadTooLargeEncoded: {
            /** @enum {string} */
            _tag: "PayloadTooLarge";
            limitBytes: number;
            message: string;
        };
        ProbeDriver: "agent-browser";
        ProbeResult: {
            blocker: ("BLOCKED_BROWSER_DRIVER_UNAVAILABLE" | "BLOCKED_BROWSER_DRIVER_IDENTITY_UNVERIFIED" | "BLOCKED_BROWSER_DRIVER_CLEANUP_FAILED") | null;
            command: string | null;
            detail: string;
            /** @enum {string} */
            status: "available" | "unavailable" | "unverified-identity";
            version: string | null;
        };
        ToolCallRecord: {
            path: string;
            /** @enum {string} */
            status: "ok" | "error" | "denied";
        };
        UnauthorizedEncoded: {
            /** @enum {string} */
            _tag: "Unauthorized";
            message: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    "capabilities.probe": {
        parameters: {
            query?: {
                driver?: components["schemas"]["ProbeDriver"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ProbeResult */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProbeResult"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BadRequestProblemEncoded"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedEncoded"];
                };
            };
            /** @description MisdirectedRequest */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MisdirectedRequestEncoded"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["InternalServerErrorProblemEncoded"];
                };
            };
        };
    };
    "codemode.execute": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ExecuteRequest"];
            };
        };
        responses: {
            /** @description ExecuteResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExecuteResponse"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BadRequestProblemEncoded"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedEncoded"];
                };
            };
            /** @description PayloadTooLarge */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayloadTooLargeEncoded"];
                };
            };
            /** @description MisdirectedRequest */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MisdirectedRequestEncoded"];
                };
            };
            /** @description InvalidGlobals */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvalidGlobalsEncoded"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["InternalServerErrorProblemEncoded"];
                };
            };
        };
    };
    "health.health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Health */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BadRequestProblemEncoded"];
                };
            };
            /** @description MisdirectedRequest */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MisdirectedRequestEncoded"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["InternalServerErrorProblemEncoded"];
                };
            };
        };
    };
    "skills.list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        dropped: {
                            file: string;
                            reason: string;
                        }[];
                        ignoredAutoInject: {
                            file: string;
                            reason: string;
                        }[];
                        shadowed: {
                            by: string;
                            file: string;
                            name: string;
                        }[];
                        skills: {
                            "allowed-tools"?: string | string[];
                            autoInject?: {
                                keywords?: string[];
                                paths?: string[];
                                url?: string[];
                            };
                            baseDirectory: string;
                            body: string;
                            compatibility?: string;
                            description: string;
                            icon?: string;
                            license?: string;
                            location: string;
                            metadata?: {
                                [key: string]: string;
                            };
                            name: string;
                            slash?: boolean;
                            source: string;
                        }[];
                        warnings: {
                            file: string;
                            reason: string;
                        }[];
                    };
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BadRequestProblemEncoded"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedEncoded"];
                };
            };
            /** @description MisdirectedRequest */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MisdirectedRequestEncoded"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["InternalServerErrorProblemEncoded"];
                };
            };
        };
    };
    "skills.arm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ArmRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Armed"][];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BadRequestProblemEncoded"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedEncoded"];
                };
            };
            /** @description PayloadTooLarge */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayloadTooLargeEncoded"];
                };
            };
            /** @description MisdirectedRequest */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MisdirectedRequestEncoded"];
                };
            };
            /** @description Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["InternalServerErrorProblemEncoded"];
                };
            };
        };
    };
}
