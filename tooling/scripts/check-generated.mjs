// `check:generated` for one package (run in its directory): runs the package's `generate` script,
// then fails when git sees any change under the generated paths given as arguments — a committed
// artifact that no longer matches its source. The fix is always to regenerate, never to hand-edit.
//
//   node ../../tooling/scripts/check-generated.mjs openapi.json src/generated
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"

const paths = process.argv.slice(2)
if (paths.length === 0) {
  process.stderr.write("usage: check-generated.mjs <generated path>…\n")
  process.exit(2)
}
const { name } = JSON.parse(readFileSync("package.json", "utf8"))

const generate = spawnSync(process.execPath, ["--run", "generate"], { stdio: "inherit" })
if (generate.status !== 0) {
  process.stderr.write(`check:generated: the generate script of ${name} failed\n`)
  process.exit(1)
}

const git = (args) => {
  const result = spawnSync("git", args, { encoding: "utf8" })
  if (result.status !== 0) {
    process.stderr.write(`check:generated: git ${args.join(" ")} failed: ${result.stderr}`)
    process.exit(1)
  }
  return result.stdout
}

const status = git(["status", "--porcelain", "--untracked-files=all", "--", ...paths])
if (status.trim() === "") {
  process.stdout.write(`check:generated: ${name} artifacts are up to date (${paths.join(", ")})\n`)
  process.exit(0)
}
process.stderr.write(
  `check:generated: the committed artifacts of ${name} are stale:\n${status}\n` +
    `${git(["--no-pager", "diff", "--", ...paths])}\n` +
    `Fix: run \`pnpm --filter ${name} generate\` and commit the result.\n`
)
process.exit(1)
