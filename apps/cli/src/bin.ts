// A hook runs before every prompt of the host, so `armory hook` starts without the CLI framework,
// Effect's runtime or any command's dependencies: each path is a chunk of its own, loaded on demand.
const [command, ...rest] = process.argv.slice(2)
const wantsFramework = rest.some((arg) => arg === "--help" || arg === "-h" || arg.startsWith("--wizard") || arg.startsWith("--completions"))

if (command === "hook" && !wantsFramework) void import("./HookMain.js").then(({ runHook }) => runHook(rest))
else void import("./Main.js")
