/** The first line of the plugin module `armory init opencode` writes: how a later run knows the file is Armory's. */
export const OPENCODE_PLUGIN_MARKER = "// Armory for OpenCode, written by `armory init opencode`"

/**
 * The plugin module `armory init opencode` writes to `.opencode/plugins/armory.js`. It imports only
 * Node's built-ins, so OpenCode installs nothing for it: each hook call runs `<command> hook opencode`
 * with OpenCode's hook arguments on stdin and adds the text it answers. OpenCode calls every export
 * of a plugin module as a plugin, so it exports the plugin alone. A hook that fails, times out or
 * answers nothing adds nothing; it never throws into OpenCode.
 */
export const openCodePluginModule = (command: ReadonlyArray<string>): string => `${OPENCODE_PLUGIN_MARKER}; run it again to update this file.
// It asks \`armory hook opencode\` what to add: the skills a message or an edit arms, and the goal snapshot.
import { spawn } from "node:child_process"
import { randomUUID } from "node:crypto"

const COMMAND = ${JSON.stringify([...command, "hook", "opencode"])}
const TIMEOUT_MS = 15000
const MAX_ANSWER_BYTES = 1048576

const ask = (payload) =>
  new Promise((resolve) => {
    let child
    try {
      child = spawn(COMMAND[0], COMMAND.slice(1), { cwd: payload.directory, stdio: ["pipe", "pipe", "ignore"], shell: process.platform === "win32" })
    } catch {
      resolve(undefined)
      return
    }
    const chunks = []
    let bytes = 0
    const timer = setTimeout(() => child.kill(), TIMEOUT_MS)
    child.stdout.on("data", (chunk) => {
      bytes += chunk.length
      if (bytes <= MAX_ANSWER_BYTES) chunks.push(chunk)
      else child.kill()
    })
    child.on("error", () => {
      clearTimeout(timer)
      resolve(undefined)
    })
    child.on("close", () => {
      clearTimeout(timer)
      try {
        const answer = JSON.parse(Buffer.concat(chunks).toString("utf8"))
        resolve(typeof answer?.text === "string" && answer.text !== "" ? answer.text : undefined)
      } catch {
        resolve(undefined)
      }
    })
    child.stdin.on("error", () => {})
    child.stdin.end(JSON.stringify(payload))
  })

export const ArmoryPlugin = async ({ directory }) => ({
  "chat.message": async (input, output) => {
    try {
      const text = await ask({ hook: "chat.message", directory, sessionID: output.message.sessionID, parts: output.parts })
      if (text === undefined) return
      output.parts.push({ id: \`prt_armory_\${randomUUID()}\`, sessionID: output.message.sessionID, messageID: output.message.id, type: "text", text, synthetic: true })
    } catch {}
  },
  "tool.execute.after": async (input, output) => {
    try {
      const text = await ask({ hook: "tool.execute.after", directory, sessionID: input.sessionID, tool: input.tool, args: input.args })
      if (text !== undefined) output.output = \`\${output.output}\\n\\n\${text}\`
    } catch {}
  }
})
`
