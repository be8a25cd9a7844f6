import { execFile } from "node:child_process"
import { existsSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from "node:fs"
import { join, relative } from "node:path"
import { promisify } from "node:util"
import { packArmoryPackages } from "./readme-examples.js"

const run = promisify(execFile)

/**
 * Installs the Armory package `name` into `project` with npm from packed tarballs, the way a user
 * installs it from the registry: the Armory packages it needs come from their tarballs, everything
 * else from the npm registry.
 */
export const installPackedArmoryPackage = async (workspaceRoot, name, project, { timeoutMs }) => {
  const tarballs = join(project, ".tarballs")
  mkdirSync(tarballs, { recursive: true })
  const packed = await packArmoryPackages(workspaceRoot, [name], tarballs)
  const specs = Object.fromEntries(Object.entries(packed).map(([packageName, file]) => [packageName, `file:./${relative(project, file)}`]))
  writeFileSync(
    join(project, "package.json"),
    `${JSON.stringify({ name: "installed-armory-package", private: true, devDependencies: { [name]: specs[name] }, overrides: specs }, null, 2)}\n`
  )
  await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: project, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 })
}

/** Bytes of the files under a path, symbolic links not followed. */
const sizeOf = (path) => {
  const info = lstatSync(path)
  if (!info.isDirectory()) return info.size
  return readdirSync(path).reduce((total, entry) => total + sizeOf(join(path, entry)), 0)
}

/** Every package under `modules` (nested ones included), with its size without its own `node_modules`. */
export const installedPackages = (modules) =>
  readdirSync(modules, { withFileTypes: true }).flatMap((entry) => {
    if (!entry.isDirectory() || entry.name.startsWith(".")) return []
    const path = join(modules, entry.name)
    if (entry.name.startsWith("@")) return installedPackages(path).map((inner) => ({ ...inner, name: `${entry.name}/${inner.name}` }))
    if (!existsSync(join(path, "package.json"))) return []
    const own = readdirSync(path)
      .filter((name) => name !== "node_modules")
      .reduce((total, name) => total + sizeOf(join(path, name)), 0)
    const nested = existsSync(join(path, "node_modules")) ? installedPackages(join(path, "node_modules")) : []
    return [{ name: entry.name, bytes: own }, ...nested]
  })

/** What a project's `node_modules` holds: how many packages, how many bytes, and the largest few. */
export const installedSize = (modules) => {
  const packages = installedPackages(modules)
  return {
    packages: packages.length,
    bytes: packages.reduce((total, entry) => total + entry.bytes, 0),
    largest: packages.toSorted((a, b) => b.bytes - a.bytes).slice(0, 4)
  }
}
