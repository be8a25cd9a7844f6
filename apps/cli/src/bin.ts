// A hook runs before every prompt of the host, and a host waits on `armory mcp`'s first answer, so
// `armory hook` starts without the CLI framework, Effect's runtime or any command's dependencies,
// and `armory mcp` on stdio answers `initialize` before it loads them: each path is a chunk of its own, loaded on demand.
const [command, ...rest] = process.argv.slice(2)
const wantsFramework = rest.some((arg) => arg === "--help" || arg === "-h" || arg.startsWith("--wizard") || arg.startsWith("--completions"))

if (command === "hook" && !wantsFramework) void import("./HookMain.js").then(({ runHook }) => runHook(rest))
else if (command === "mcp" && !wantsFramework && !rest.some((arg) => arg === "--http" || arg.startsWith("--http="))) void import("./McpMain.js").then(({ runMcp }) => runMcp())
else void import("./Main.js").then(({ main }) => main())
