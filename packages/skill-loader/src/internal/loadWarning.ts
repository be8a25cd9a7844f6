import type { LoadReport } from "../LoadReport.js"
import { printable } from "./text.js"

/**
 * The single warning a load logs when it dropped, ignored or shadowed anything, or found a risky glob: a header that
 * counts, then one line per affected file in load order, reasons in the text itself.
 */
export const formatLoadWarning = (report: LoadReport, sources: ReadonlyArray<string>, lines: ReadonlyArray<string>): string => {
  const total = report.skills.length + report.dropped.length + report.shadowed.length
  const from = sources.length === 0 ? "no readable source" : sources.join(", ")
  const shadowed = report.shadowed.length === 0 ? "" : `, shadowed ${report.shadowed.length}`
  const warnings = report.warnings.length === 0 ? "" : `, warnings ${report.warnings.length}`
  const header =
    `skill-loader dropped ${report.dropped.length} of ${total} skill documents from ${from} ` +
    `(loaded ${report.skills.length}, ignoredAutoInject ${report.ignoredAutoInject.length}${shadowed}${warnings}):`
  return [printable(header), ...lines.map((line) => `  ${printable(line)}`)].join("\n")
}
