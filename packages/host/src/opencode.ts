// OpenCode calls every function this module exports as a plugin, so it exports the plugin alone;
// `makeOpenCodePlugin` and the types are in `@armory/host/hooks`.
export { ArmoryPlugin } from "./hooks/OpenCodePlugin.js"
