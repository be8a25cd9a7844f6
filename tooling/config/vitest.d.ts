import type { UserConfig } from "vitest/config"

export declare const packageTestConfig: (overrides?: UserConfig) => UserConfig
