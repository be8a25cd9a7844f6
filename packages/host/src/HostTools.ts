import { DomainUnavailableError, type Page, pageTools } from "@armory/browser-runtime"
import type { ToolTree } from "@armory/codemode"
import { type GoalStoreClient, goalTools } from "@armory/goal-store"
import { Effect, Schema } from "effect"
import type { SkillCatalogShape } from "./SkillCatalog.js"

/** The host's own domain objects, bound as globals of the same name. */
export const DOMAIN_GLOBALS = ["channel", "page"] as const

/** Every global a host binds for code mode, in the order they are offered. */
export const HOST_GLOBALS = ["skills", "goals", ...DOMAIN_GLOBALS] as const

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

/** A channel that keeps what is posted, for a host that returns the messages with the result. */
export const collectingChannel = (id: string): Channel & { readonly messages: ReadonlyArray<string> } => {
  const messages: Array<string> = []
  return {
    id,
    messages,
    send: async ({ text }) => {
      messages.push(text)
    }
  }
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

const skillTools = (catalog: Pick<SkillCatalogShape, "report" | "arm">): ToolTree => ({
  list: {
    description: "Lists the skills that loaded from the skill roots.",
    input: Schema.Void,
    output: Schema.Array(SkillSummary),
    run: () => catalog.report.pipe(Effect.map((report) => report.skills.map(({ name, description }) => ({ name, description }))))
  },
  arm: {
    description: "Names the skills that arm for a prompt (and the page URL, when given).",
    input: Schema.Struct({ prompt: Schema.String, url: Schema.optional(Schema.String) }),
    output: Schema.Array(Schema.String),
    run: ({ prompt, url }: { readonly prompt: string; readonly url?: string | undefined }) =>
      catalog.arm({ prompt, url }).pipe(Effect.map((armed) => armed.map(({ name }) => name)))
  }
})

/**
 * The tool tree a host hands to code mode: `skills` over its catalog, `goals` over one session,
 * `channel` and `page`. The domain namespaces come last so that no other namespace can take their names.
 */
export const hostTools = (options: {
  readonly channel: Channel
  readonly page: Page
  readonly goals: GoalStoreClient
  readonly skills: Pick<SkillCatalogShape, "report" | "arm">
}): ToolTree => ({
  skills: skillTools(options.skills),
  goals: goalTools(options.goals),
  channel: channelTools(options.channel),
  page: pageTools(options.page)
})
