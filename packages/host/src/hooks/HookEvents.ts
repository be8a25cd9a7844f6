import { join } from "node:path"
import type { SkillSource } from "@armory/skill-loader"
import { projectRootOf } from "../ProjectRoot.js"
import { defaultSkillSources, type SkillPrecedence } from "../SkillSources.js"
import type { FileEdit } from "@armory/skill-arming"
import { boundedEdits, type EditedFile } from "./EditedFile.js"
import { armForHook, hookCacheDirectory, hookSkills } from "./HookCatalog.js"
import { type HookContextInput, renderHookContext } from "./HookContext.js"
import { givenToSession, recordGiven } from "./HookSessions.js"
import { hookGoalSnapshot } from "./HookSnapshot.js"
import { projectRelativePath } from "./ProjectPaths.js"

/** The most edited files one event arms for: a patch can name any number. */
export const MAX_HOOK_EDIT_FILES = 256

/** The edited files a heading names; the rest are counted. */
const NAMED_FILES = 3

/** What happened in the host, as every host's hook reduces to it. */
export type HookEvent =
  | { readonly kind: "session-start" }
  | { readonly kind: "prompt"; readonly prompt: string }
  | { readonly kind: "edit"; readonly edits: ReadonlyArray<EditedFile> }

export interface HookProjectOptions {
  /** The skill roots (default: the roots of `defaultSkillSources` for the project). */
  readonly skillSources?: ReadonlyArray<SkillSource> | undefined
  /** The goals directory of the file store (default `.armory/goals` under the project). */
  readonly goalsRoot?: string | undefined
  /** The goal session whose snapshot is injected (default: the store's default session). */
  readonly sessionId?: string | undefined
}

export interface HookEventOptions extends HookProjectOptions {
  /** The directory the host's session runs in; the project whose skills, goals and cache are used is `projectRootOf` it. */
  readonly projectDir: string
  /** The host's own session id, so a prompt adds the goal snapshot only when that session has not seen it yet. */
  readonly hostSession?: string | undefined
  /** Whose skill wins a name clash in the default roots: the host's own rule (default `"project"`). */
  readonly precedence?: SkillPrecedence | undefined
}

/**
 * The text a hook adds for one host event: a session's start adds the goal snapshot; a prompt adds
 * the skills it arms and the snapshot when it is new to the host's session; an edit adds the skills
 * the edited files' project-relative paths arm, and those whose edit condition what it changed meets,
 * with the added lines that met it. A skill is handed over whole the first time a
 * session gets it (and again when it changed), later only said to be still armed. A snapshot that
 * cannot be read is said in one line, and the skills are still added. Empty when there is nothing to add.
 */
export const hookEventContext = async (event: HookEvent, options: HookEventOptions): Promise<string> => {
  const projectDir = projectRootOf(options.projectDir)
  const cache = hookCacheDirectory(projectDir)
  const skills = () => hookSkills(options.skillSources ?? defaultSkillSources({ cwd: projectDir, ...(options.precedence === undefined ? {} : { precedence: options.precedence }) }), cache)
  const snapshot = () => hookGoalSnapshot({ root: options.goalsRoot ?? join(projectDir, ".armory", "goals"), sessionId: options.sessionId, cacheDirectory: cache })
  const session = options.hostSession
  /** Renders for the session, and records what it was given. */
  const answer = (input: Omit<HookContextInput, "given">, given: ReturnType<typeof givenToSession> | undefined, snapshotGiven: string | undefined): string => {
    const rendered = renderHookContext({ ...input, given: given?.skills })
    if (session !== undefined) recordGiven(cache, session, { snapshot: snapshotGiven, skills: rendered.delivered })
    return rendered.text
  }
  switch (event.kind) {
    case "session-start": {
      const goal = await snapshot()
      if ("unavailable" in goal) return answer({ armed: [], trigger: "", snapshot: "", snapshotUnavailable: goal.unavailable }, undefined, undefined)
      return answer({ armed: [], trigger: "", snapshot: goal.text }, undefined, goal.text)
    }
    case "prompt": {
      const [catalog, goal] = await Promise.all([skills(), snapshot()])
      const armed = armForHook(catalog, { prompt: event.prompt })
      const text = "unavailable" in goal ? "" : goal.text
      const given = session === undefined ? undefined : givenToSession(cache, session, text)
      if ("unavailable" in goal) return answer({ armed, trigger: "this prompt", snapshot: "", snapshotUnavailable: goal.unavailable }, given, undefined)
      const isNew = given === undefined || !given.snapshotGiven
      return answer({ armed, trigger: "this prompt", snapshot: isNew ? text : "" }, given, isNew ? text : undefined)
    }
    case "edit": {
      const inProject = boundedEdits(event.edits).flatMap((edit) => {
        const path = projectRelativePath(projectDir, edit.file)
        return path === undefined ? [] : [{ ...edit, path }]
      })
      const paths = [...new Set(inProject.map((edit) => edit.path))].slice(0, MAX_HOOK_EDIT_FILES)
      if (paths.length === 0) return ""
      const armedPaths = new Set(paths)
      const edits: ReadonlyArray<FileEdit> = inProject.flatMap(({ path, after, before, syntax }) =>
        after === undefined || !armedPaths.has(path) ? [] : [{ path, after, ...(before === undefined ? {} : { before }), ...(syntax === undefined ? {} : { syntax }) }]
      )
      const named = paths.slice(0, NAMED_FILES).map((path) => JSON.stringify(path)).join(", ")
      const trigger =
        paths.length === 1 ? `the edit of ${named}` : `the edits of ${named}${paths.length > NAMED_FILES ? ` and ${paths.length - NAMED_FILES} more files` : ""}`
      const given = session === undefined ? undefined : givenToSession(cache, session, "")
      return answer({ armed: armForHook(await skills(), { prompt: "", paths, edits }), trigger, snapshot: "" }, given, undefined)
    }
  }
}
