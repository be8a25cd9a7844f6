// Writes the artifacts derived from the contract: `openapi.json` (from src/Api.ts) and the typed
// fetch client's declarations in `src/generated/openapi.ts` (from openapi.json, by openapi-typescript).
// Run it with `pnpm --filter @armory/client generate`; `check:generated` runs it and fails on any diff.
//
// The contract is TypeScript whose imports name `.js` files, which Node's type stripping does not
// rewrite; so it is bundled first, without declarations and into a private cache, leaving `dist/`
// alone and needing no prior build of this package (only of its dependencies).
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import openapiTS, { astToString } from "openapi-typescript"
import { build } from "tsup"

const packageDir = join(import.meta.dirname, "..")
const bundleDir = join(packageDir, "node_modules", ".cache", "armory-client-generate")

rmSync(bundleDir, { recursive: true, force: true })
await build({
  config: false,
  entry: { contract: join(packageDir, "src", "index.ts") },
  format: ["esm"],
  platform: "node",
  target: "node22",
  outDir: bundleDir,
  dts: false,
  silent: true
})
const { openApiText, REGENERATE_COMMAND } = await import(pathToFileURL(join(bundleDir, "contract.js")).href)

const documentText = openApiText()
writeFileSync(join(packageDir, "openapi.json"), documentText)

const ast = await openapiTS(JSON.parse(documentText), { alphabetize: true })
const header =
  "// Generated from openapi.json by openapi-typescript: do not edit.\n" +
  `// Regenerate with \`${REGENERATE_COMMAND}\`.\n\n`
mkdirSync(join(packageDir, "src", "generated"), { recursive: true })
writeFileSync(join(packageDir, "src", "generated", "openapi.ts"), header + astToString(ast))
rmSync(bundleDir, { recursive: true, force: true })
