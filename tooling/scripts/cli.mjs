// `pnpm cli …`: builds the CLI and what it depends on (turbo's cache makes this a no-op when
// nothing changed), keeping the build's output out of the way unless it fails, then runs the
// built `armory` with the given arguments and its exit code.
import { spawnSync } from "node:child_process"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..")
const build = spawnSync("turbo", ["run", "build", "--filter=@armory/cli...", "--output-logs=errors-only"], {
  cwd: root,
  encoding: "utf8",
  shell: process.platform === "win32"
})
if (build.status !== 0) {
  process.stderr.write(build.stdout ?? "")
  process.stderr.write(build.stderr ?? "")
  process.stderr.write(`armory: building the CLI failed${build.error ? `: ${build.error.message}` : ""}\n`)
  process.exit(1)
}
const cli = spawnSync(process.execPath, [join(root, "apps", "cli", "dist", "bin.js"), ...process.argv.slice(2)], {
  stdio: "inherit"
})
process.exit(cli.status ?? 1)
