// Writes the artifacts derived from the contract: `openapi.json` (from @armory/api) and the typed
// fetch client's declarations in `src/generated/openapi.ts` (from openapi.json, by openapi-typescript).
// Run it with `pnpm --filter @armory/client generate`; `check:generated` runs it and fails on any diff.
// It reads the contract's build, so `@armory/api` is built first (turbo's `^build`).
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { openApiText, REGENERATE_COMMAND } from "@armory/api"
import openapiTS, { astToString } from "openapi-typescript"

const packageDir = join(import.meta.dirname, "..")

const documentText = openApiText()
writeFileSync(join(packageDir, "openapi.json"), documentText)

const ast = await openapiTS(JSON.parse(documentText), { alphabetize: true })
const header =
  "// Generated from openapi.json by openapi-typescript: do not edit.\n" +
  `// Regenerate with \`${REGENERATE_COMMAND}\`.\n\n`
mkdirSync(join(packageDir, "src", "generated"), { recursive: true })
writeFileSync(join(packageDir, "src", "generated", "openapi.ts"), header + astToString(ast))
