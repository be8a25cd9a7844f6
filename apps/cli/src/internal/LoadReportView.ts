import type { LoadReport, SkillInfo } from "@armory/skill-loader"
import { renderTable } from "./Table.js"

const list = (label: string, values: ReadonlyArray<string> | undefined) =>
  values === undefined || values.length === 0 ? [] : [`${label}: ${values.join(", ")}`]

export const triggersOf = (skill: SkillInfo): string => {
  const block = skill.autoInject
  const parts = [...list("keywords", block?.keywords), ...list("url", block?.url), ...list("paths", block?.paths)]
  return parts.length === 0 ? "(manual only)" : parts.join("; ")
}

/** The lines that explain what did not load as-is: dropped, ignored, shadowed, risky globs. */
export const problemLines = (report: LoadReport): ReadonlyArray<string> => [
  ...(report.dropped.length === 0
    ? []
    : [`dropped ${report.dropped.length}:`, ...report.dropped.map(({ file, reason }) => `  ${file}: ${reason}`)]),
  ...(report.ignoredAutoInject.length === 0
    ? []
    : [
        `autoInject ignored for ${report.ignoredAutoInject.length}:`,
        ...report.ignoredAutoInject.map(({ file, reason }) => `  ${file}: ${reason}`)
      ]),
  ...(report.shadowed.length === 0
    ? []
    : [
        `shadowed ${report.shadowed.length}:`,
        ...report.shadowed.map(({ name, file, by }) => `  ${name}: ${file} (loaded from ${by})`)
      ]),
  ...(report.warnings.length === 0
    ? []
    : [`warnings ${report.warnings.length}:`, ...report.warnings.map(({ file, reason }) => `  ${file}: ${reason}`)])
]

/**
 * One line saying how many documents did not load as written, pointing to `armory skills check`
 * for the reasons; nothing when every document loaded as written.
 */
export const problemSummary = (report: LoadReport): ReadonlyArray<string> => {
  const counts = [
    [report.dropped.length, "dropped"],
    [report.ignoredAutoInject.length, "autoInject ignored"],
    [report.shadowed.length, "shadowed"],
    [report.warnings.length, report.warnings.length === 1 ? "warning" : "warnings"]
  ] as const
  const present = counts.filter(([count]) => count > 0)
  return present.length === 0
    ? []
    : [`skill documents not loaded as written: ${present.map(([count, label]) => `${count} ${label}`).join(", ")} (\`armory skills check\` says why)`]
}

export const renderSkillTable = (skills: ReadonlyArray<SkillInfo>): string =>
  renderTable(
    ["name", "description", "triggers", "location"],
    skills.map((skill) => [
      skill.name,
      skill.description.length > 60 ? `${skill.description.slice(0, 59)}…` : skill.description,
      triggersOf(skill),
      skill.location
    ])
  )
