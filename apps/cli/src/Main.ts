import "./internal/commonjsInterop.js"
import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Effect, Layer, Logger, References } from "effect"
import { runCli } from "./Cli.js"
import { type Primed, primedStdio } from "./internal/PrimedStdio.js"

/** Runs the command the arguments name; `primed`: what a fast start already took from stdin (see `McpMain`). */
export const main = (primed?: Primed): void =>
  runCli.pipe(
    // stdout carries the command's output (often JSON); log lines go to stderr.
    Effect.provideService(Logger.LogToStderr, true),
    // Commands render the packages' reports themselves; `--log-level warn` shows the packages' own logs too.
    Effect.provideService(References.MinimumLogLevel, "Error"),
    Effect.provide(primed === undefined ? Layer.empty : primedStdio(primed)),
    Effect.provide(NodeServices.layer),
    NodeRuntime.runMain
  )
