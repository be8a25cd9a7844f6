import packageJson from "../../package.json" with { type: "json" }

/** What `armory --version` prints and `armory serve` reports on `/health`. */
export const ARMORY_VERSION: string = packageJson.version
