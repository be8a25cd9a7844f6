// `check:pack` for one published package (run in its directory): packs it the way it will be
// published — `pnpm pack` rewrites `workspace:` and `catalog:` ranges — then lints that tarball
// with publint (strict) and checks its types with Are the Types Wrong (ESM-only profile).
import { spawnSync } from "node:child_process"
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const run = (command, args) => {
  const result = spawnSync(command, args, { stdio: "inherit", shell: process.platform === "win32" })
  if (result.status !== 0) {
    process.stderr.write(`check:pack: \`${[command, ...args].join(" ")}\` failed\n`)
    process.exit(1)
  }
}

const destination = mkdtempSync(join(tmpdir(), "armory-pack-"))
try {
  run("pnpm", ["pack", "--pack-destination", destination])
  const tarball = readdirSync(destination).find((name) => name.endsWith(".tgz"))
  if (tarball === undefined) throw new Error(`pnpm pack wrote no tarball into ${destination}`)
  const tarballPath = join(destination, tarball)
  run("publint", ["run", tarballPath, "--strict"])
  run("attw", [tarballPath, "--profile", "esm-only", "--no-emoji", "--format", "table-flipped"])
} finally {
  rmSync(destination, { recursive: true, force: true })
}
