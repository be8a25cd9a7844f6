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
