import { DomainUnavailableError, type Page, pageTools } from "@armory/browser-runtime"
import type { ToolTree } from "@armory/codemode"
import { arm } from "@armory/skill-arming"
import { load } from "@armory/skill-loader"
import { type Context, Effect, Schema } from "effect"
import type { FileSystem, Path } from "effect"
import { skillSources } from "./SkillSources.js"

/** The host's own domain objects, bound as globals of the same name. */
export const DOMAIN_GLOBALS = ["channel", "page"] as const

/** Every global `armory exec` can bind; `--globals` picks from these. */
export const EXEC_GLOBALS = ["skills", ...DOMAIN_GLOBALS] as const

/** Where `channel.send` goes: the conversation the code reports to. */
export interface Channel {
  readonly id: string
  readonly send: (message: { readonly text: string }) => Promise<void>
}

/** The channel of the catalog preview: there is no conversation, so it refuses to post. */
export const unavailableChannel: Channel = {
  id: "preview",
  send: () =>
    Promise.reject(new DomainUnavailableError({ object: "channel", missing: "the catalog preview has no conversation to post to" }))
}

const channelTools = (channel: Channel): ToolTree => ({
  id: {
    description: "The id of the conversation this code reports to.",
    input: Schema.Void,
    output: Schema.String,
    run: async () => channel.id
  },
  send: {
    description: "Posts a message to the conversation.",
    input: Schema.Struct({ text: Schema.String }),
    output: Schema.Null,
    run: async (message: { readonly text: string }) => {
      await channel.send(message)
      return null
    }
  }
})

const SkillSummary = Schema.Struct({ name: Schema.String, description: Schema.String })

const skillTools = (dirs: ReadonlyArray<string>, services: Context.Context<FileSystem.FileSystem | Path.Path>): ToolTree => {
  const loaded = load(skillSources(dirs)).pipe(Effect.provideContext(services))
  return {
    list: {
      description: "Lists the skills that loaded from the skill roots.",
      input: Schema.Void,
      output: Schema.Array(SkillSummary),
      run: () => loaded.pipe(Effect.map((report) => report.skills.map(({ name, description }) => ({ name, description }))))
    },
    arm: {
      description: "Names the skills that arm for a prompt (and the page URL, when given).",
      input: Schema.Struct({ prompt: Schema.String, url: Schema.optional(Schema.String) }),
      output: Schema.Array(Schema.String),
      run: ({ prompt, url }: { readonly prompt: string; readonly url?: string | undefined }) =>
        loaded.pipe(Effect.map((report) => arm({ skills: report.skills, prompt, url }).map((armed) => armed.name)))
    }
  }
}

/**
 * The tool tree of `armory exec`: the domain namespaces come last so that no other namespace can
 * take their names.
 */
export const execTools = Effect.fn("execTools")(function* (options: {
  readonly channel: Channel
  readonly page: Page
  readonly dirs: ReadonlyArray<string>
}) {
  const services = yield* Effect.context<FileSystem.FileSystem | Path.Path>()
  const tree: ToolTree = {
    skills: skillTools(options.dirs, services),
    channel: channelTools(options.channel),
    page: pageTools(options.page)
  }
  return tree
})

/** `--globals a,b` (repeatable): the globals to bind, all of them by default. */
export const selectedGlobals = (values: ReadonlyArray<string>): ReadonlyArray<string> => {
  const names = values.flatMap((value) => value.split(",")).map((name) => name.trim()).filter((name) => name !== "")
  return names.length === 0 ? EXEC_GLOBALS : names
}
