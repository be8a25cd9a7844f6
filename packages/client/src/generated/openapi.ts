// Generated from openapi.json by openapi-typescript: do not edit.
// Regenerate with `pnpm --filter @armory/client generate`.

export interface paths {
    "/browser/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The server's auto provider order for its platform and a probe of each provider (nothing is launched). */
        get: operations["browser.providers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
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
    "/goals/blockers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** @description Opens a review blocker. */
        post: operations["goals.addBlocker"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/goals/blockers/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** @description Resolves a review blocker by id. */
        post: operations["goals.resolveBlocker"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/goals/checkpoint": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** @description Records a progress checkpoint. */
        post: operations["goals.checkpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/goals/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** @description Completes the goal; refused with a 409 GateRefused listing everything unmet until the evidence gate passes. */
        post: operations["goals.complete"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/goals/criteria": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** @description Adds a success criterion to the active goal. */
        post: operations["goals.addCriterion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/goals/criterion-status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** @description Sets a criterion's status; leaving fail or blocked starts a new attempt. */
        post: operations["goals.setCriterionStatus"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/goals/evidence": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** @description Attaches evidence (red, green, scenario, cleanup) to a criterion's current attempt. */
        post: operations["goals.addEvidence"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/goals/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The ids of the separate goal sessions under the server's goals root. */
        get: operations["goals.sessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/goals/set": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** @description Sets the session's objective (with optional criteria); a different objective than the active one is a 409 ObjectiveConflict. */
        post: operations["goals.set"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/goals/snapshot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The short text a host injects every turn: objective, next unmet criteria, open blockers, gate. */
        get: operations["goals.snapshot"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/goals/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The session's goal and its completion gate (passed, and everything unmet). */
        get: operations["goals.status"];
        put?: never;
        /** @description Sets the goal status (not complete: completion goes through /goals/complete). */
        post: operations["goals.setGoalStatus"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/goals/steer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** @description Records a steering directive; one that weakens completion is a 422 SteeringRejected (and recorded). */
        post: operations["goals.steer"];
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
        /** @description The server's skill catalog, loaded once and kept current by watching its roots: the full load report: skills, dropped documents, ignored autoInject blocks, shadowed names and warnings. */
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
            /** @description for a skill with an edit condition: the edited files whose change met it, with the added lines that did */
            edits: {
                lines: string[];
                path: string;
            }[];
            keywords: string[];
            name: string;
            paths: string[];
            urls: string[];
        };
        ArmRequest: {
            edits?: {
                /** @description the text the edit put in */
                after: string;
                /** @description the text it replaced, when known */
                before?: string;
                path: string;
                /** @description the language as an extension, when the path does not say it */
                syntax?: string;
            }[];
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
        Blocker: {
            /** @description a non-blank text */
            detail: string;
            /** @description an id of 1-64 letters, digits, '-' or '_', starting with a letter or digit */
            id: string;
            openedAt: string;
            resolvedAt?: string;
            /** @enum {string} */
            status: "open" | "resolved";
        };
        /** @enum {string} */
        BrowserProviderName: "browseros" | "aside" | "chrome-cdp";
        BrowserProviderProbe: {
            endpoint: string;
            error: components["schemas"]["BrowserUnavailableError"] | null;
            provider: components["schemas"]["BrowserProviderName"];
            /** @enum {string} */
            status: "available" | "unavailable";
        };
        BrowserProviders: {
            order: components["schemas"]["BrowserProviderName"][];
            platform: string;
            providers: components["schemas"]["BrowserProviderProbe"][];
        };
        BrowserUnavailableError: {
            /** @enum {string} */
            _tag: "BrowserUnavailableError";
            attempts: {
                endpoint: string;
                provider: string;
                reason: string;
            }[];
            /** @enum {string} */
            code: "UNAVAILABLE";
            endpoint: string;
            provider: string;
            reason: string;
        };
        ChannelTranscript: {
            id: string;
            messages: string[];
        };
        Checkpoint: {
            /** @description an id of 1-64 letters, digits, '-' or '_', starting with a letter or digit */
            activeCriterion?: string;
            at: string;
            /** @description an id of 1-64 letters, digits, '-' or '_', starting with a letter or digit */
            id: string;
            /** @description a non-blank text */
            summary: string;
        };
        Criterion: {
            attempt: number;
            evidence: components["schemas"]["Evidence"][];
            /** @description an id of 1-64 letters, digits, '-' or '_', starting with a letter or digit */
            id: string;
            /** @enum {string} */
            qaChannel: "http" | "tmux" | "browser" | "computer" | "cli";
            /** @description a non-blank text */
            scenario: string;
            /** @enum {string} */
            status: "pending" | "in_progress" | "pass" | "fail" | "blocked" | "needs_user_decision";
            /** @description a non-blank text */
            testRef: string;
        };
        Evidence: {
            at: string;
            attempt: number;
            /** @description an id of 1-64 letters, digits, '-' or '_', starting with a letter or digit */
            criterionId: string;
            detail?: string;
            /** @description an id of 1-64 letters, digits, '-' or '_', starting with a letter or digit */
            id: string;
            /** @enum {string} */
            kind: "red" | "green" | "scenario" | "cleanup" | "note";
            /** @description a non-blank text */
            ref: string;
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
            omittedCalls?: number | ("Infinity" | "-Infinity" | "NaN");
            result?: unknown;
            /** @enum {string} */
            status: "completed" | "error" | "timeout";
            truncated?: boolean;
        };
        ForceNotAllowedEncoded: {
            /** @enum {string} */
            _tag: "ForceNotAllowed";
            goalId: string;
        };
        GateRefusedEncoded: {
            /** @enum {string} */
            _tag: "GateRefused";
            unmet: components["schemas"]["Unmet"][];
        };
        Goal: {
            checkpoints: components["schemas"]["Checkpoint"][];
            completedAt?: string;
            createdAt: string;
            criteria: components["schemas"]["Criterion"][];
            /** @description an id of 1-64 letters, digits, '-' or '_', starting with a letter or digit */
            id: string;
            /** @description a non-blank text */
            objective: string;
            reviewBlockers: components["schemas"]["Blocker"][];
            /** @enum {string} */
            status: "active" | "review_blocked" | "needs_user_decision" | "blocked" | "complete";
            steering: components["schemas"]["Steering"][];
            updatedAt: string;
        };
        GoalAddBlockerInput: {
            /** @description a non-blank text */
            detail: string;
            /** @description Operator only: change a goal that is already complete (recorded with the operator's name). Never opens the gate; refused with ForceNotAllowed by a store opened without an operator. */
            force?: boolean;
        };
        GoalAddCriterionInput: {
            /** @description Operator only: change a goal that is already complete (recorded with the operator's name). Never opens the gate; refused with ForceNotAllowed by a store opened without an operator. */
            force?: boolean;
            /** @enum {string} */
            qaChannel: "http" | "tmux" | "browser" | "computer" | "cli";
            /** @description a non-blank text */
            scenario: string;
            /** @description a non-blank text */
            testRef: string;
        };
        GoalAddEvidenceInput: {
            /** @description an id of 1-64 letters, digits, '-' or '_', starting with a letter or digit */
            criterionId: string;
            detail?: string;
            /** @description Operator only: change a goal that is already complete (recorded with the operator's name). Never opens the gate; refused with ForceNotAllowed by a store opened without an operator. */
            force?: boolean;
            /** @enum {string} */
            kind: "red" | "green" | "scenario" | "cleanup" | "note";
            /** @description a non-blank text */
            ref: string;
        };
        GoalAlreadyCompleteEncoded: {
            /** @enum {string} */
            _tag: "GoalAlreadyComplete";
            goalId: string;
        };
        GoalCheckpointInput: {
            /** @description an id of 1-64 letters, digits, '-' or '_', starting with a letter or digit */
            activeCriterion?: string;
            /** @description Operator only: change a goal that is already complete (recorded with the operator's name). Never opens the gate; refused with ForceNotAllowed by a store opened without an operator. */
            force?: boolean;
            /** @description a non-blank text */
            summary: string;
        };
        GoalCompleteInput: {
            /** @description Operator only: change a goal that is already complete (recorded with the operator's name). Never opens the gate; refused with ForceNotAllowed by a store opened without an operator. */
            force?: boolean;
        };
        GoalResolveBlockerInput: {
            /** @description an id of 1-64 letters, digits, '-' or '_', starting with a letter or digit */
            blockerId: string;
            /** @description Operator only: change a goal that is already complete (recorded with the operator's name). Never opens the gate; refused with ForceNotAllowed by a store opened without an operator. */
            force?: boolean;
        };
        GoalSetCriterionStatusInput: {
            /** @description an id of 1-64 letters, digits, '-' or '_', starting with a letter or digit */
            criterionId: string;
            /** @description Operator only: change a goal that is already complete (recorded with the operator's name). Never opens the gate; refused with ForceNotAllowed by a store opened without an operator. */
            force?: boolean;
            /** @enum {string} */
            status: "pending" | "in_progress" | "pass" | "fail" | "blocked" | "needs_user_decision";
        };
        GoalSetInput: {
            criteria?: {
                /** @enum {string} */
                qaChannel: "http" | "tmux" | "browser" | "computer" | "cli";
                /** @description a non-blank text */
                scenario: string;
                /** @description a non-blank text */
                testRef: string;
            }[];
            /** @description a non-blank text */
            objective: string;
        };
        GoalSetStatusInput: {
            /** @description Operator only: change a goal that is already complete (recorded with the operator's name). Never opens the gate; refused with ForceNotAllowed by a store opened without an operator. */
            force?: boolean;
            /** @enum {string} */
            status: "active" | "review_blocked" | "needs_user_decision" | "blocked";
        };
        GoalSnapshot: {
            snapshot: string;
        };
        GoalStatusReport: {
            gate: {
                passed: boolean;
                unmet: components["schemas"]["Unmet"][];
            };
            goal: components["schemas"]["Goal"] | null;
        };
        GoalSteerInput: {
            criterion?: {
                /** @enum {string} */
                qaChannel: "http" | "tmux" | "browser" | "computer" | "cli";
                /** @description a non-blank text */
                scenario: string;
                /** @description a non-blank text */
                testRef: string;
            };
            directive: string;
            evidence: string;
            /** @description Operator only: change a goal that is already complete (recorded with the operator's name). Never opens the gate; refused with ForceNotAllowed by a store opened without an operator. */
            force?: boolean;
            /** @enum {string} */
            kind: "add_criterion" | "redirect" | "narrow_scope" | "reprioritize" | "annotate";
            rationale: string;
        };
        Health: {
            /** @description the version of the HTTP API contract it implements */
            api: string;
            /** @enum {string} */
            status: "ok";
            /** @description the version of the Armory server answering */
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
        InvalidInputEncoded: {
            /** @enum {string} */
            _tag: "InvalidInput";
            reason: string;
        };
        LoadReport: {
            dropped: {
                file: string;
                reason: string;
            }[];
            ignoredAutoInject: {
                file: string;
                reason: string;
            }[];
            shadowed: {
                /** @description <source name>:<name>, by which the shadowed skill is still reached */
                address: string;
                /** @description the location of the skill loaded under that name */
                by: string;
                file: string;
                name: string;
                skill: components["schemas"]["SkillInfo"];
            }[];
            skills: components["schemas"]["SkillInfo"][];
            warnings: {
                file: string;
                reason: string;
            }[];
        };
        LockUnavailableEncoded: {
            /** @enum {string} */
            _tag: "LockUnavailable";
            lock: string;
            reason: string;
        };
        MalformedStateEncoded: {
            /** @enum {string} */
            _tag: "MalformedState";
            file: string;
            line?: number | ("Infinity" | "-Infinity" | "NaN");
            reason: string;
        };
        MethodNotAllowedEncoded: {
            /** @enum {string} */
            _tag: "MethodNotAllowed";
            allow: string[];
            message: string;
            method: string;
            path: string;
        };
        MisdirectedRequestEncoded: {
            /** @enum {string} */
            _tag: "MisdirectedRequest";
            host: string;
            message: string;
        };
        NoActiveGoalEncoded: {
            /** @enum {string} */
            _tag: "NoActiveGoal";
            sessionId: string;
        };
        ObjectiveConflictEncoded: {
            /** @enum {string} */
            _tag: "ObjectiveConflict";
            current: string;
            requested: string;
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
        RouteNotFoundEncoded: {
            /** @enum {string} */
            _tag: "RouteNotFound";
            message: string;
            method: string;
            path: string;
        };
        SkillInfo: {
            /** @description <source name>:<name>: reaches the skill even when an earlier source's skill of the same name shadows it */
            address: string;
            "allowed-tools"?: string | string[];
            autoInject?: {
                edits?: {
                    added?: string[];
                    comments?: boolean;
                };
                keywords?: string[];
                paths?: string[];
                requested?: boolean;
                unless?: string[];
                url?: string[];
            };
            /** @description the directory relative references in the body resolve against */
            baseDirectory: string;
            body: string;
            /** @description a non-blank string */
            compatibility?: string;
            /** @description a non-blank string */
            description: string;
            /** @description an http or https URL */
            icon?: string;
            license?: string;
            /** @description the SKILL.md's absolute path, as reached from its source */
            location: string;
            metadata?: {
                [key: string]: string;
            };
            /** @description lowercase letters, digits and single inner hyphens (a-z, 0-9, -) */
            name: string;
            slash?: boolean;
            /** @description directory:<absolute path> or file:<absolute path> */
            source: string;
        };
        Steering: {
            at: string;
            /** @description an id of 1-64 letters, digits, '-' or '_', starting with a letter or digit */
            criterionId?: string;
            /** @description a non-blank text */
            directive: string;
            /** @description a non-blank text */
            evidence: string;
            /** @description an id of 1-64 letters, digits, '-' or '_', starting with a letter or digit */
            id: string;
            /** @enum {string} */
            kind: "add_criterion" | "redirect" | "narrow_scope" | "reprioritize" | "annotate";
            /** @description a non-blank text */
            rationale: string;
        };
        SteeringRejectedEncoded: {
            /** @enum {string} */
            _tag: "SteeringRejected";
            reason: string;
            recorded: boolean;
        };
        StorageFailureEncoded: {
            /** @enum {string} */
            _tag: "StorageFailure";
            committed: boolean;
            file: string;
            operation: string;
            reason: string;
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
        UnknownBlockerEncoded: {
            /** @enum {string} */
            _tag: "UnknownBlocker";
            blockerId: string;
        };
        UnknownCriterionEncoded: {
            /** @enum {string} */
            _tag: "UnknownCriterion";
            criterionId: string;
        };
        Unmet: {
            attempt: number | ("Infinity" | "-Infinity" | "NaN");
            criterionId: string;
            /** @enum {string} */
            kind: "criterion";
            owes: ("pass" | "green" | "scenario")[];
            scenario: string;
            /** @enum {string} */
            status: "pending" | "in_progress" | "pass" | "fail" | "blocked" | "needs_user_decision";
        } | {
            blockerId: string;
            detail: string;
            /** @enum {string} */
            kind: "blocker";
        } | {
            /** @enum {string} */
            kind: "goal";
            reason: string;
            /** @enum {string} */
            status: "active" | "review_blocked" | "needs_user_decision" | "blocked" | "complete";
        };
        UnsupportedMediaTypeEncoded: {
            /** @enum {string} */
            _tag: "UnsupportedMediaType";
            accepted: string[];
            contentType: string | null;
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
    "browser.providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description BrowserProviders */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BrowserProviders"];
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
            /** @description RouteNotFound */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RouteNotFoundEncoded"];
                };
            };
            /** @description MethodNotAllowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedEncoded"];
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
            /** @description RouteNotFound */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RouteNotFoundEncoded"];
                };
            };
            /** @description MethodNotAllowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedEncoded"];
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
            /** @description RouteNotFound */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RouteNotFoundEncoded"];
                };
            };
            /** @description MethodNotAllowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedEncoded"];
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
            /** @description UnsupportedMediaType */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeEncoded"];
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
    "goals.addBlocker": {
        parameters: {
            query?: {
                sessionId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GoalAddBlockerInput"];
            };
        };
        responses: {
            /** @description Blocker */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Blocker"];
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
            /** @description ForceNotAllowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ForceNotAllowedEncoded"];
                };
            };
            /** @description RouteNotFound | UnknownCriterion | UnknownBlocker | NoActiveGoal */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RouteNotFoundEncoded"] | components["schemas"]["UnknownCriterionEncoded"] | components["schemas"]["UnknownBlockerEncoded"] | components["schemas"]["NoActiveGoalEncoded"];
                };
            };
            /** @description MethodNotAllowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedEncoded"];
                };
            };
            /** @description GateRefused | ObjectiveConflict | GoalAlreadyComplete | MalformedState */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GateRefusedEncoded"] | components["schemas"]["ObjectiveConflictEncoded"] | components["schemas"]["GoalAlreadyCompleteEncoded"] | components["schemas"]["MalformedStateEncoded"];
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
            /** @description UnsupportedMediaType */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeEncoded"];
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
            /** @description SteeringRejected | InvalidInput */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SteeringRejectedEncoded"] | components["schemas"]["InvalidInputEncoded"];
                };
            };
            /** @description StorageFailure | Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StorageFailureEncoded"];
                    "application/problem+json": components["schemas"]["InternalServerErrorProblemEncoded"];
                };
            };
            /** @description LockUnavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LockUnavailableEncoded"];
                };
            };
        };
    };
    "goals.resolveBlocker": {
        parameters: {
            query?: {
                sessionId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GoalResolveBlockerInput"];
            };
        };
        responses: {
            /** @description Blocker */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Blocker"];
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
            /** @description ForceNotAllowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ForceNotAllowedEncoded"];
                };
            };
            /** @description RouteNotFound | UnknownCriterion | UnknownBlocker | NoActiveGoal */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RouteNotFoundEncoded"] | components["schemas"]["UnknownCriterionEncoded"] | components["schemas"]["UnknownBlockerEncoded"] | components["schemas"]["NoActiveGoalEncoded"];
                };
            };
            /** @description MethodNotAllowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedEncoded"];
                };
            };
            /** @description GateRefused | ObjectiveConflict | GoalAlreadyComplete | MalformedState */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GateRefusedEncoded"] | components["schemas"]["ObjectiveConflictEncoded"] | components["schemas"]["GoalAlreadyCompleteEncoded"] | components["schemas"]["MalformedStateEncoded"];
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
            /** @description UnsupportedMediaType */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeEncoded"];
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
            /** @description SteeringRejected | InvalidInput */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SteeringRejectedEncoded"] | components["schemas"]["InvalidInputEncoded"];
                };
            };
            /** @description StorageFailure | Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StorageFailureEncoded"];
                    "application/problem+json": components["schemas"]["InternalServerErrorProblemEncoded"];
                };
            };
            /** @description LockUnavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LockUnavailableEncoded"];
                };
            };
        };
    };
    "goals.checkpoint": {
        parameters: {
            query?: {
                sessionId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GoalCheckpointInput"];
            };
        };
        responses: {
            /** @description Checkpoint */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Checkpoint"];
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
            /** @description ForceNotAllowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ForceNotAllowedEncoded"];
                };
            };
            /** @description RouteNotFound | UnknownCriterion | UnknownBlocker | NoActiveGoal */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RouteNotFoundEncoded"] | components["schemas"]["UnknownCriterionEncoded"] | components["schemas"]["UnknownBlockerEncoded"] | components["schemas"]["NoActiveGoalEncoded"];
                };
            };
            /** @description MethodNotAllowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedEncoded"];
                };
            };
            /** @description GateRefused | ObjectiveConflict | GoalAlreadyComplete | MalformedState */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GateRefusedEncoded"] | components["schemas"]["ObjectiveConflictEncoded"] | components["schemas"]["GoalAlreadyCompleteEncoded"] | components["schemas"]["MalformedStateEncoded"];
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
            /** @description UnsupportedMediaType */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeEncoded"];
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
            /** @description SteeringRejected | InvalidInput */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SteeringRejectedEncoded"] | components["schemas"]["InvalidInputEncoded"];
                };
            };
            /** @description StorageFailure | Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StorageFailureEncoded"];
                    "application/problem+json": components["schemas"]["InternalServerErrorProblemEncoded"];
                };
            };
            /** @description LockUnavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LockUnavailableEncoded"];
                };
            };
        };
    };
    "goals.complete": {
        parameters: {
            query?: {
                sessionId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GoalCompleteInput"];
            };
        };
        responses: {
            /** @description Goal */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Goal"];
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
            /** @description ForceNotAllowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ForceNotAllowedEncoded"];
                };
            };
            /** @description RouteNotFound | UnknownCriterion | UnknownBlocker | NoActiveGoal */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RouteNotFoundEncoded"] | components["schemas"]["UnknownCriterionEncoded"] | components["schemas"]["UnknownBlockerEncoded"] | components["schemas"]["NoActiveGoalEncoded"];
                };
            };
            /** @description MethodNotAllowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedEncoded"];
                };
            };
            /** @description GateRefused | ObjectiveConflict | GoalAlreadyComplete | MalformedState */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GateRefusedEncoded"] | components["schemas"]["ObjectiveConflictEncoded"] | components["schemas"]["GoalAlreadyCompleteEncoded"] | components["schemas"]["MalformedStateEncoded"];
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
            /** @description UnsupportedMediaType */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeEncoded"];
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
            /** @description SteeringRejected | InvalidInput */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SteeringRejectedEncoded"] | components["schemas"]["InvalidInputEncoded"];
                };
            };
            /** @description StorageFailure | Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StorageFailureEncoded"];
                    "application/problem+json": components["schemas"]["InternalServerErrorProblemEncoded"];
                };
            };
            /** @description LockUnavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LockUnavailableEncoded"];
                };
            };
        };
    };
    "goals.addCriterion": {
        parameters: {
            query?: {
                sessionId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GoalAddCriterionInput"];
            };
        };
        responses: {
            /** @description Criterion */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Criterion"];
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
            /** @description ForceNotAllowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ForceNotAllowedEncoded"];
                };
            };
            /** @description RouteNotFound | UnknownCriterion | UnknownBlocker | NoActiveGoal */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RouteNotFoundEncoded"] | components["schemas"]["UnknownCriterionEncoded"] | components["schemas"]["UnknownBlockerEncoded"] | components["schemas"]["NoActiveGoalEncoded"];
                };
            };
            /** @description MethodNotAllowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedEncoded"];
                };
            };
            /** @description GateRefused | ObjectiveConflict | GoalAlreadyComplete | MalformedState */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GateRefusedEncoded"] | components["schemas"]["ObjectiveConflictEncoded"] | components["schemas"]["GoalAlreadyCompleteEncoded"] | components["schemas"]["MalformedStateEncoded"];
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
            /** @description UnsupportedMediaType */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeEncoded"];
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
            /** @description SteeringRejected | InvalidInput */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SteeringRejectedEncoded"] | components["schemas"]["InvalidInputEncoded"];
                };
            };
            /** @description StorageFailure | Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StorageFailureEncoded"];
                    "application/problem+json": components["schemas"]["InternalServerErrorProblemEncoded"];
                };
            };
            /** @description LockUnavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LockUnavailableEncoded"];
                };
            };
        };
    };
    "goals.setCriterionStatus": {
        parameters: {
            query?: {
                sessionId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GoalSetCriterionStatusInput"];
            };
        };
        responses: {
            /** @description Criterion */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Criterion"];
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
            /** @description ForceNotAllowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ForceNotAllowedEncoded"];
                };
            };
            /** @description RouteNotFound | UnknownCriterion | UnknownBlocker | NoActiveGoal */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RouteNotFoundEncoded"] | components["schemas"]["UnknownCriterionEncoded"] | components["schemas"]["UnknownBlockerEncoded"] | components["schemas"]["NoActiveGoalEncoded"];
                };
            };
            /** @description MethodNotAllowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedEncoded"];
                };
            };
            /** @description GateRefused | ObjectiveConflict | GoalAlreadyComplete | MalformedState */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GateRefusedEncoded"] | components["schemas"]["ObjectiveConflictEncoded"] | components["schemas"]["GoalAlreadyCompleteEncoded"] | components["schemas"]["MalformedStateEncoded"];
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
            /** @description UnsupportedMediaType */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeEncoded"];
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
            /** @description SteeringRejected | InvalidInput */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SteeringRejectedEncoded"] | components["schemas"]["InvalidInputEncoded"];
                };
            };
            /** @description StorageFailure | Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StorageFailureEncoded"];
                    "application/problem+json": components["schemas"]["InternalServerErrorProblemEncoded"];
                };
            };
            /** @description LockUnavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LockUnavailableEncoded"];
                };
            };
        };
    };
    "goals.addEvidence": {
        parameters: {
            query?: {
                sessionId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GoalAddEvidenceInput"];
            };
        };
        responses: {
            /** @description Evidence */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Evidence"];
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
            /** @description ForceNotAllowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ForceNotAllowedEncoded"];
                };
            };
            /** @description RouteNotFound | UnknownCriterion | UnknownBlocker | NoActiveGoal */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RouteNotFoundEncoded"] | components["schemas"]["UnknownCriterionEncoded"] | components["schemas"]["UnknownBlockerEncoded"] | components["schemas"]["NoActiveGoalEncoded"];
                };
            };
            /** @description MethodNotAllowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedEncoded"];
                };
            };
            /** @description GateRefused | ObjectiveConflict | GoalAlreadyComplete | MalformedState */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GateRefusedEncoded"] | components["schemas"]["ObjectiveConflictEncoded"] | components["schemas"]["GoalAlreadyCompleteEncoded"] | components["schemas"]["MalformedStateEncoded"];
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
            /** @description UnsupportedMediaType */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeEncoded"];
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
            /** @description SteeringRejected | InvalidInput */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SteeringRejectedEncoded"] | components["schemas"]["InvalidInputEncoded"];
                };
            };
            /** @description StorageFailure | Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StorageFailureEncoded"];
                    "application/problem+json": components["schemas"]["InternalServerErrorProblemEncoded"];
                };
            };
            /** @description LockUnavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LockUnavailableEncoded"];
                };
            };
        };
    };
    "goals.sessions": {
        parameters: {
            query?: {
                sessionId?: string;
            };
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
                    "application/json": string[];
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
            /** @description ForceNotAllowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ForceNotAllowedEncoded"];
                };
            };
            /** @description RouteNotFound | UnknownCriterion | UnknownBlocker | NoActiveGoal */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RouteNotFoundEncoded"] | components["schemas"]["UnknownCriterionEncoded"] | components["schemas"]["UnknownBlockerEncoded"] | components["schemas"]["NoActiveGoalEncoded"];
                };
            };
            /** @description MethodNotAllowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedEncoded"];
                };
            };
            /** @description GateRefused | ObjectiveConflict | GoalAlreadyComplete | MalformedState */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GateRefusedEncoded"] | components["schemas"]["ObjectiveConflictEncoded"] | components["schemas"]["GoalAlreadyCompleteEncoded"] | components["schemas"]["MalformedStateEncoded"];
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
            /** @description SteeringRejected | InvalidInput */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SteeringRejectedEncoded"] | components["schemas"]["InvalidInputEncoded"];
                };
            };
            /** @description StorageFailure | Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StorageFailureEncoded"];
                    "application/problem+json": components["schemas"]["InternalServerErrorProblemEncoded"];
                };
            };
            /** @description LockUnavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LockUnavailableEncoded"];
                };
            };
        };
    };
    "goals.set": {
        parameters: {
            query?: {
                sessionId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GoalSetInput"];
            };
        };
        responses: {
            /** @description Goal */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Goal"];
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
            /** @description ForceNotAllowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ForceNotAllowedEncoded"];
                };
            };
            /** @description RouteNotFound | UnknownCriterion | UnknownBlocker | NoActiveGoal */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RouteNotFoundEncoded"] | components["schemas"]["UnknownCriterionEncoded"] | components["schemas"]["UnknownBlockerEncoded"] | components["schemas"]["NoActiveGoalEncoded"];
                };
            };
            /** @description MethodNotAllowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedEncoded"];
                };
            };
            /** @description GateRefused | ObjectiveConflict | GoalAlreadyComplete | MalformedState */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GateRefusedEncoded"] | components["schemas"]["ObjectiveConflictEncoded"] | components["schemas"]["GoalAlreadyCompleteEncoded"] | components["schemas"]["MalformedStateEncoded"];
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
            /** @description UnsupportedMediaType */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeEncoded"];
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
            /** @description SteeringRejected | InvalidInput */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SteeringRejectedEncoded"] | components["schemas"]["InvalidInputEncoded"];
                };
            };
            /** @description StorageFailure | Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StorageFailureEncoded"];
                    "application/problem+json": components["schemas"]["InternalServerErrorProblemEncoded"];
                };
            };
            /** @description LockUnavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LockUnavailableEncoded"];
                };
            };
        };
    };
    "goals.snapshot": {
        parameters: {
            query?: {
                sessionId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description GoalSnapshot */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GoalSnapshot"];
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
            /** @description ForceNotAllowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ForceNotAllowedEncoded"];
                };
            };
            /** @description RouteNotFound | UnknownCriterion | UnknownBlocker | NoActiveGoal */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RouteNotFoundEncoded"] | components["schemas"]["UnknownCriterionEncoded"] | components["schemas"]["UnknownBlockerEncoded"] | components["schemas"]["NoActiveGoalEncoded"];
                };
            };
            /** @description MethodNotAllowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedEncoded"];
                };
            };
            /** @description GateRefused | ObjectiveConflict | GoalAlreadyComplete | MalformedState */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GateRefusedEncoded"] | components["schemas"]["ObjectiveConflictEncoded"] | components["schemas"]["GoalAlreadyCompleteEncoded"] | components["schemas"]["MalformedStateEncoded"];
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
            /** @description SteeringRejected | InvalidInput */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SteeringRejectedEncoded"] | components["schemas"]["InvalidInputEncoded"];
                };
            };
            /** @description StorageFailure | Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StorageFailureEncoded"];
                    "application/problem+json": components["schemas"]["InternalServerErrorProblemEncoded"];
                };
            };
            /** @description LockUnavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LockUnavailableEncoded"];
                };
            };
        };
    };
    "goals.status": {
        parameters: {
            query?: {
                sessionId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description GoalStatusReport */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GoalStatusReport"];
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
            /** @description ForceNotAllowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ForceNotAllowedEncoded"];
                };
            };
            /** @description RouteNotFound | UnknownCriterion | UnknownBlocker | NoActiveGoal */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RouteNotFoundEncoded"] | components["schemas"]["UnknownCriterionEncoded"] | components["schemas"]["UnknownBlockerEncoded"] | components["schemas"]["NoActiveGoalEncoded"];
                };
            };
            /** @description MethodNotAllowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedEncoded"];
                };
            };
            /** @description GateRefused | ObjectiveConflict | GoalAlreadyComplete | MalformedState */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GateRefusedEncoded"] | components["schemas"]["ObjectiveConflictEncoded"] | components["schemas"]["GoalAlreadyCompleteEncoded"] | components["schemas"]["MalformedStateEncoded"];
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
            /** @description SteeringRejected | InvalidInput */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SteeringRejectedEncoded"] | components["schemas"]["InvalidInputEncoded"];
                };
            };
            /** @description StorageFailure | Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StorageFailureEncoded"];
                    "application/problem+json": components["schemas"]["InternalServerErrorProblemEncoded"];
                };
            };
            /** @description LockUnavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LockUnavailableEncoded"];
                };
            };
        };
    };
    "goals.setGoalStatus": {
        parameters: {
            query?: {
                sessionId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GoalSetStatusInput"];
            };
        };
        responses: {
            /** @description Goal */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Goal"];
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
            /** @description ForceNotAllowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ForceNotAllowedEncoded"];
                };
            };
            /** @description RouteNotFound | UnknownCriterion | UnknownBlocker | NoActiveGoal */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RouteNotFoundEncoded"] | components["schemas"]["UnknownCriterionEncoded"] | components["schemas"]["UnknownBlockerEncoded"] | components["schemas"]["NoActiveGoalEncoded"];
                };
            };
            /** @description MethodNotAllowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedEncoded"];
                };
            };
            /** @description GateRefused | ObjectiveConflict | GoalAlreadyComplete | MalformedState */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GateRefusedEncoded"] | components["schemas"]["ObjectiveConflictEncoded"] | components["schemas"]["GoalAlreadyCompleteEncoded"] | components["schemas"]["MalformedStateEncoded"];
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
            /** @description UnsupportedMediaType */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeEncoded"];
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
            /** @description SteeringRejected | InvalidInput */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SteeringRejectedEncoded"] | components["schemas"]["InvalidInputEncoded"];
                };
            };
            /** @description StorageFailure | Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StorageFailureEncoded"];
                    "application/problem+json": components["schemas"]["InternalServerErrorProblemEncoded"];
                };
            };
            /** @description LockUnavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LockUnavailableEncoded"];
                };
            };
        };
    };
    "goals.steer": {
        parameters: {
            query?: {
                sessionId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GoalSteerInput"];
            };
        };
        responses: {
            /** @description Steering */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Steering"];
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
            /** @description ForceNotAllowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ForceNotAllowedEncoded"];
                };
            };
            /** @description RouteNotFound | UnknownCriterion | UnknownBlocker | NoActiveGoal */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RouteNotFoundEncoded"] | components["schemas"]["UnknownCriterionEncoded"] | components["schemas"]["UnknownBlockerEncoded"] | components["schemas"]["NoActiveGoalEncoded"];
                };
            };
            /** @description MethodNotAllowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedEncoded"];
                };
            };
            /** @description GateRefused | ObjectiveConflict | GoalAlreadyComplete | MalformedState */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GateRefusedEncoded"] | components["schemas"]["ObjectiveConflictEncoded"] | components["schemas"]["GoalAlreadyCompleteEncoded"] | components["schemas"]["MalformedStateEncoded"];
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
            /** @description UnsupportedMediaType */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeEncoded"];
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
            /** @description SteeringRejected | InvalidInput */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SteeringRejectedEncoded"] | components["schemas"]["InvalidInputEncoded"];
                };
            };
            /** @description StorageFailure | Internal Server Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StorageFailureEncoded"];
                    "application/problem+json": components["schemas"]["InternalServerErrorProblemEncoded"];
                };
            };
            /** @description LockUnavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LockUnavailableEncoded"];
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
            /** @description RouteNotFound */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RouteNotFoundEncoded"];
                };
            };
            /** @description MethodNotAllowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedEncoded"];
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
            /** @description LoadReport */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoadReport"];
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
            /** @description RouteNotFound */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RouteNotFoundEncoded"];
                };
            };
            /** @description MethodNotAllowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedEncoded"];
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
            /** @description RouteNotFound */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RouteNotFoundEncoded"];
                };
            };
            /** @description MethodNotAllowed */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedEncoded"];
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
            /** @description UnsupportedMediaType */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeEncoded"];
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
