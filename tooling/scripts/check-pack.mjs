// `check:pack` for one published package (run in its directory): packs it the way it will be
// published — `pnpm pack` rewrites `workspace:` and `catalog:` ranges — then lints that tarball
// with publint (strict) and checks its types with Are the Types Wrong (ESM-only profile). A peer
// dependency pinned to one exact version is refused: a consumer on any other patch of it could not
// install the package.
import { execFileSync, spawnSync } from "node:child_process"
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
  const packed = JSON.parse(execFileSync("tar", ["-xzOf", tarballPath, "package/package.json"], { encoding: "utf8" }))
  const pinned = Object.entries(packed.peerDependencies ?? {}).filter(([, range]) => /^v?\d/.test(String(range)))
  if (pinned.length > 0) {
    process.stderr.write(
      `check:pack: ${packed.name} pins its peers to exact versions (${pinned.map(([name, range]) => `${name} ${range}`).join(", ")}); ` +
        "give them a range (the `peers` catalog in pnpm-workspace.yaml)\n"
    )
    process.exit(1)
  }
  run("publint", ["run", tarballPath, "--strict"])
  run("attw", [tarballPath, "--profile", "esm-only", "--no-emoji", "--format", "table-flipped"])
} finally {
  rmSync(destination, { recursive: true, force: true })
}
