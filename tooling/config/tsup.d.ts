import type { Options } from "tsup"

export declare const libraryBuild: (overrides?: Options) => Options
export declare const appBuild: (overrides?: Options) => Options
