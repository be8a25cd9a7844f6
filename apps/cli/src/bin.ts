import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Effect } from "effect"
import { runCli } from "./Cli.js"

runCli.pipe(Effect.provide(NodeServices.layer), NodeRuntime.runMain)
