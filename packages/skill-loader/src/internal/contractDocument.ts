import { Result } from "effect"
import { MAX_FRONTMATTER_BYTES } from "../Limits.js"

/**
 * litopencode's skill contract documents: a SKILL.md without frontmatter whose metadata is the
 * fenced YAML block under `## #contract.activation`, inside the
 * `<!-- litopencode-contract:start -->` … `<!-- litopencode-contract:end -->` section.
 */
export const CONTRACT_START = "<!-- litopencode-contract:start -->"

/** The contract's YAML, and the line of the file it starts on. */
export interface ContractBlock {
  readonly yaml: string
  readonly firstLine: number
}

const ACTIVATION_HEADING = /^##[ \t]+#contract\.activation[ \t]*\r?$/m
const FENCE_OPEN = /^```[ \t]*(?:ya?ml)?[ \t]*\r?\n/m
const FENCE_CLOSE = /^```[ \t]*\r?$/m

const lineOf = (text: string, index: number): number => text.slice(0, index).split("\n").length

/**
 * The contract block of a contract document; undefined when the text is not one (no start
 * marker), and a reason when it is one without a readable activation block.
 */
export const contractBlock = (text: string): Result.Result<ContractBlock, string> | undefined => {
  const start = text.indexOf(CONTRACT_START)
  if (start === -1) return undefined
  const section = text.slice(start)
  const heading = ACTIVATION_HEADING.exec(section)
  if (heading === null) return Result.fail("contract document without a \"## #contract.activation\" heading: its fenced YAML block is the skill's metadata")
  const afterHeading = section.slice(heading.index + heading[0].length)
  const open = FENCE_OPEN.exec(afterHeading)
  if (open === null || afterHeading.slice(0, open.index).trim() !== "") return Result.fail("contract document whose \"## #contract.activation\" heading is not followed by a fenced YAML block")
  const yamlText = afterHeading.slice(open.index + open[0].length)
  const close = FENCE_CLOSE.exec(yamlText)
  if (close === null) return Result.fail("contract document whose activation block is never closed: no \"```\" line after it")
  const yaml = yamlText.slice(0, close.index)
  const bytes = Buffer.byteLength(yaml, "utf8")
  if (bytes > MAX_FRONTMATTER_BYTES) return Result.fail(`contract block too large: ${bytes} bytes, over the ${MAX_FRONTMATTER_BYTES}-byte limit`)
  const yamlStart = start + heading.index + heading[0].length + open.index + open[0].length
  return Result.succeed({ yaml, firstLine: lineOf(text, yamlStart) })
}

/** The frontmatter fields a contract may carry under their own names. */
const SKILL_FIELDS = new Set(["name", "description", "slash", "icon", "license", "compatibility", "allowed-tools", "metadata", "autoInject"])

const isMapping = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

const asText = (value: unknown): string => (typeof value === "string" ? value : value === null || typeof value !== "object" ? String(value) : JSON.stringify(value))

/**
 * A contract's data as frontmatter: `skill_id` is the name, `description` (else `title`, with a
 * warning) the description, a `/<name>` entry route makes it a slash command, the frontmatter
 * fields it carries keep their meaning (an `autoInject` block arms it as in any SKILL.md), and
 * every other contract field is kept in `metadata` as text.
 */
export const contractFrontmatter = (contract: unknown): { readonly declared: unknown; readonly warnings: ReadonlyArray<string> } => {
  if (!isMapping(contract)) return { declared: contract, warnings: [] }
  const warnings: Array<string> = []
  const declared: Record<string, unknown> = {}
  const metadata: Record<string, string> = {}
  for (const [key, value] of Object.entries(contract)) {
    if (SKILL_FIELDS.has(key)) declared[key] = value
    else metadata[key] = asText(value)
  }
  declared["name"] ??= contract["skill_id"]
  if (declared["description"] === undefined && typeof contract["title"] === "string") {
    declared["description"] = contract["title"]
    warnings.push("contract document without a description: its title is the description")
  }
  const routes = contract["entry_routes"]
  if (declared["slash"] === undefined && Array.isArray(routes) && typeof declared["name"] === "string" && routes.includes(`/${declared["name"]}`)) declared["slash"] = true
  const own = declared["metadata"]
  declared["metadata"] = isMapping(own) ? { ...metadata, ...own } : metadata
  return { declared, warnings }
}
