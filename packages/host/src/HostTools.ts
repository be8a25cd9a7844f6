import { DomainUnavailableError, type Page, pageTools } from "@armory/browser-runtime"
import type { ToolTree } from "@armory/codemode"
import { type GoalEffectTools, type GoalStoreRunner, goalEffectTools } from "@armory/goal-store"
import { catalogResult, findSkill, readSkill, SkillContents } from "@armory/skill-loader"
import { Effect, Schema } from "effect"
import type { SkillCatalogShape } from "./SkillCatalog.js"

export type { Tool, ToolTree } from "@armory/codemode"

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

const channelTools = (channel: Channel) => ({
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

/** A skill a caller named that no root of the catalog holds now. */
export class UnknownSkill extends Schema.TaggedError<UnknownSkill>()("UnknownSkill", { name: Schema.String, available: Schema.Number }) {
  override get message(): string {
    return `no skill named ${JSON.stringify(this.name)} is loaded (${this.available} are; list them with skills.list)`
  }
}

const SkillSummary = Schema.Struct({
  name: Schema.String,
  /** `<root name>:<name>`: what `read` takes to reach this skill when another root's skill holds the name. */
  address: Schema.String,
  description: Schema.String,
  location: Schema.String,
  /** Set when an earlier root's skill of the same name wins it: that skill's location. */
  shadowedBy: Schema.optionalKey(Schema.String)
})

const ArmedSkill = Schema.Struct({
  name: Schema.String,
  /** The SKILL.md to read. */
  location: Schema.String,
  /** The declared patterns that armed it, by kind. */
  keywords: Schema.Array(Schema.String),
  urls: Schema.Array(Schema.String),
  paths: Schema.Array(Schema.String),
  /** For a skill with an edit condition: the edited files whose change met it, with the added lines that did. */
  edits: Schema.Array(Schema.Struct({ path: Schema.String, lines: Schema.Array(Schema.String) }))
})
export type ArmedSkill = typeof ArmedSkill.Type

const ArmInput = Schema.Struct({
  prompt: Schema.String,
  url: Schema.optional(Schema.String),
  paths: Schema.optional(Schema.Array(Schema.String)),
  /** What edits changed, for skills that arm on a condition of an edit: the text put in, and the text replaced when known. */
  edits: Schema.optional(
    Schema.Array(Schema.Struct({ path: Schema.String, after: Schema.String, before: Schema.optional(Schema.String), syntax: Schema.optional(Schema.String) }))
  )
})

const CatalogInput = Schema.optional(
  Schema.Struct({ maxChars: Schema.optional(Schema.Number.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 1_000_000 }))) })
)

const SuggestInput = Schema.Struct({
  prompt: Schema.String,
  limit: Schema.optional(Schema.Number.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 100 })))
})

const SuggestedSkill = Schema.Struct({
  name: Schema.String,
  description: Schema.String,
  location: Schema.String,
  /** Lexical relevance (BM25): comparable within one answer only. */
  score: Schema.Number,
  /** The prompt's words that matched, strongest first. */
  terms: Schema.Array(Schema.String)
})

const skillTools = (catalog: Pick<SkillCatalogShape, "report" | "arm" | "suggest">) => ({
  list: {
    description:
      "Lists the skills that loaded from the skill roots: name, address (<root>:<name>), description and the SKILL.md's location; " +
      "then the skills another root's skill of the same name shadows, each with shadowedBy (read them by address).",
    input: Schema.Void,
    output: Schema.Array(SkillSummary),
    run: () =>
      catalog.report.pipe(
        Effect.map((report) => [
          ...report.skills.map(({ name, address, description, location }) => ({ name, address, description, location })),
          ...report.shadowed.map(({ skill, by }) => ({ name: skill.name, address: skill.address, description: skill.description, location: skill.location, shadowedBy: by }))
        ])
      )
  },
  read: {
    description:
      "A skill's instructions (the SKILL.md body) and the files beside it, listed with their sizes (paths relative to the skill's directory). " +
      "Takes a name, or an address (<root>:<name>) for a shadowed skill.",
    input: Schema.Struct({ name: Schema.String }),
    output: SkillContents,
    run: ({ name }: { readonly name: string }) =>
      Effect.flatMap(catalog.report, (report) => {
        const skill = findSkill(report, name)
        return skill === undefined
          ? Effect.fail(new UnknownSkill({ name, available: report.skills.length }))
          : Effect.promise(() => readSkill(skill))
      })
  },
  catalog: {
    description:
      "The <available_skills> block (name, description, location of every skill, with the rule for choosing one) that a model reads to pick a skill, within maxChars (default 8000).",
    input: CatalogInput,
    output: Schema.String,
    run: (input: typeof CatalogInput.Type) =>
      Effect.flatMap(catalog.report, (report) => Effect.fromResult(catalogResult(report, { maxChars: input?.maxChars })))
  },
  suggest: {
    description:
      "The loaded skills a prompt is most about, ranked by lexical relevance of their name and description, with the prompt's words that matched. Suggests only: it arms nothing.",
    input: SuggestInput,
    output: Schema.Array(SuggestedSkill),
    run: (request: typeof SuggestInput.Type) =>
      Effect.zipWith(catalog.suggest(request), catalog.report, (suggestions, report) =>
        suggestions.flatMap(({ name, score, terms }) => {
          const skill = report.skills.find((candidate) => candidate.name === name)
          return skill === undefined ? [] : [{ name, description: skill.description, location: skill.location, score, terms }]
        })
      )
  },
  arm: {
    description:
      "The skills that arm for a prompt (and the page URL, the repository-relative paths being changed and what edits changed, when given), with the patterns that armed each and, for an edit condition, the added lines that met it.",
    input: ArmInput,
    output: Schema.Array(ArmedSkill),
    run: (request: typeof ArmInput.Type) =>
      Effect.zipWith(catalog.arm(request), catalog.report, (armed, report) =>
        armed.flatMap(({ name, keywords, urls, paths, edits }) => {
          const skill = report.skills.find((candidate) => candidate.name === name)
          return skill === undefined ? [] : [{ name, location: skill.location, keywords, urls, paths, edits }]
        })
      )
  }
})

/** The tool tree of one code-mode run, namespace by namespace, as {@link hostTools} builds it. */
export interface HostToolTree {
  readonly skills: ReturnType<typeof skillTools>
  readonly goals: GoalEffectTools
  readonly channel: ReturnType<typeof channelTools>
  readonly page: ReturnType<typeof pageTools>
}

/**
 * The tool tree a host hands to code mode: `skills` over its catalog, `goals` over one session,
 * `channel` and `page`. The domain namespaces come last so that no other namespace can take their names.
 */
export const hostTools = (options: {
  readonly channel: Channel
  readonly page: Page
  /** Runs a goal operation on the run's session (the host's sessions open it on first use). */
  readonly goals: GoalStoreRunner
  readonly skills: Pick<SkillCatalogShape, "report" | "arm" | "suggest">
}): HostToolTree & ToolTree => ({
  skills: skillTools(options.skills),
  goals: goalEffectTools(options.goals),
  channel: channelTools(options.channel),
  page: pageTools(options.page)
})
