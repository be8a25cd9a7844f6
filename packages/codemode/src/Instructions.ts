import { globalsStatement, isBindingName } from "./Globals.js"
import { callForms } from "./internal/CallForms.js"
import {
  definitionDeclarations,
  docComment,
  jsonSchemaOf,
  optionalInput,
  propertyKey,
  takesNoInput,
  typeOf
} from "./internal/Declarations.js"
import { isTool, type Tool, type ToolTree } from "./Tool.js"

export interface InstructionsOptions {
  /** The namespaces bound as bare globals, exactly as passed to `execute`. */
  readonly globals?: ReadonlyArray<string>
}

const toolSignature = (name: string, tool: Tool, indent: string, definitions: Record<string, unknown>): ReadonlyArray<string> => {
  const input = jsonSchemaOf(tool.input)
  Object.assign(definitions, input.definitions)
  let output = "unknown"
  if (tool.output !== undefined) {
    const document = jsonSchemaOf(tool.output)
    Object.assign(definitions, document.definitions)
    output = typeOf(document.root, indent)
  }
  const forms = callForms(tool.input)
  const optional = optionalInput(input.root)
  const parameter = takesNoInput(input.root)
    ? ""
    : optional === undefined
      ? `input${forms.emptyObject ? "?" : ""}: ${typeOf(input.root, indent)}`
      : `input?: ${typeOf(optional, indent)}`
  const signature = (parameters: string) => `${indent}${propertyKey(name)}(${parameters}): Promise<${output}>`
  // The whole input is declared first, as the form every other call is short for; the string form is
  // named for the field it fills, since that name is all that tells the model where the string goes.
  const short = forms.stringField === undefined ? [] : [signature(`${isBindingName(forms.stringField) ? forms.stringField : "value"}: string`)]
  return [...docComment(tool.description, indent), signature(parameter), ...short]
}

const namespaceBody = (tree: ToolTree, indent: string, definitions: Record<string, unknown>): ReadonlyArray<string> =>
  Object.entries(tree).flatMap(([name, entry]) =>
    isTool(entry)
      ? toolSignature(name, entry, indent, definitions)
      : [`${indent}${propertyKey(name)}: {`, ...namespaceBody(entry, `${indent}  `, definitions), `${indent}}`]
  )

/**
 * The catalog preview a model reads before writing code: TypeScript declarations generated from
 * the tools' Schemas (each description as a doc comment), the globals an execution with the same
 * `globals` binds, and the rules of the sandbox.
 */
export const instructions = (tools: ToolTree, options: InstructionsOptions = {}): string => {
  const globals = options.globals ?? []
  const definitions: Record<string, unknown> = {}
  const body = namespaceBody(tools, "  ", definitions)
  const declarations = [
    ...definitionDeclarations(definitions),
    "declare const tools: {",
    ...body,
    "}",
    ...globals.map((name) => `/** The same tools as \`tools.${name}\`. */\ndeclare const ${name}: typeof tools.${name}`)
  ]
  return [
    "Write JavaScript to run in a sandbox. Your code is the body of an async function: use `await` at the top level and `return` the result, which must be JSON-serialisable.",
    "",
    globalsStatement(globals),
    "",
    "```ts",
    ...declarations,
    "```",
    "",
    "Rules:",
    "- Call a tool with one input value, `await tools.<namespace>.<tool>(input)`, or with none where the input is optional (`input?`). " +
      "A tool that also declares a string form, such as `text(selector: string)`, takes that one field as a bare string: `text(\"h1\")` is `text({ selector: \"h1\" })`." +
      (globals.length === 0 ? "" : ` A global such as \`${globals[0]}\` is the same tools as \`tools.${globals[0]}\`.`),
    "- Run independent calls together with `Promise.all`.",
    "- A failed call throws an Error with `_tag` and `message` (plus the error's own fields); catch it to recover. A call the host refuses throws `ToolCallDenied`.",
    "- `console.log`, `console.warn` and `console.error` are captured (at most 200 lines).",
    "- Return only what is needed: an oversize result is cut to its head and tail."
  ].join("\n")
}
