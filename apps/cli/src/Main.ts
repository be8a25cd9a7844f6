import "./internal/commonjsInterop.js"
import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Effect, Logger, References } from "effect"
import { runCli } from "./Cli.js"

runCli.pipe(
  // stdout carries the command's output (often JSON); log lines go to stderr.
  Effect.provideService(Logger.LogToStderr, true),
  // Commands render the packages' reports themselves; `--log-level warn` shows the packages' own logs too.
  Effect.provideService(References.MinimumLogLevel, "Error"),
  Effect.provide(NodeServices.layer),
  NodeRuntime.runMain
)
