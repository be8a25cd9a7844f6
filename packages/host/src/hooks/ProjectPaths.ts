import { isAbsolute, join, relative, sep } from "node:path"

/** An edited file as a repository-relative POSIX path, or undefined when it is outside the project. */
export const projectRelativePath = (projectDir: string, file: string): string | undefined => {
  const absolute = isAbsolute(file) ? file : join(projectDir, file)
  const inside = relative(projectDir, absolute)
  if (inside === "" || inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside)) return undefined
  return inside.split(sep).join("/")
}
