import { resolve } from "node:path"
import { readMcpConfig } from "@armory/host"
import { Effect, Option } from "effect"
import { Flag } from "effect/cli"
import { invalidUsage } from "./CommandFailed.js"

/** `--mcp FILE`: MCP servers whose tools code mode calls as `tools.<server>.<tool>()`. */
export const mcpConfigFlag = Flag.String("mcp").pipe(
  Flag.optional,
  Flag.withDescription(
    "a .mcp.json-style file ({ mcpServers: { name: { command, args?, env? } | { url, headers? } } }): each server is started once " +
      "and its tools are tools.<server>.<tool>() in code mode (only the variables a server's env names reach it, and PATH)"
  )
)

/** The servers `--mcp` names; a file that cannot be used is a usage error naming what is wrong. */
export const mcpServersOf = (file: Option.Option<string>) =>
  Option.match(file, {
    onNone: () => Effect.succeed(undefined),
    onSome: (path) => readMcpConfig(resolve(path)).pipe(Effect.mapError((error) => invalidUsage(`--mcp ${path}: ${error.reason}`)))
  })
