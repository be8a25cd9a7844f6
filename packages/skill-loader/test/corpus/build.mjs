// Rebuilds skills.json.gz, the real-world SKILL.md sample the corpus test and the load benchmark
// read, from local clones of the collections it names (each at its pinned commit):
//   node test/corpus/build.mjs openclaw/skills=<git dir> AgentWorkers/skills=<git dir> obra/superpowers=<git dir>
// The sample is deterministic: from a collection's SKILL.md paths in sorted order, `take` files
// evenly spaced, starting with the first.
import { execFileSync } from "node:child_process"
import { writeFileSync } from "node:fs"
import { gzipSync } from "node:zlib"

const COLLECTIONS = [
  { repo: "openclaw/skills", commit: "3a5f649f604cb32910dc9ddb81d9be873b2c3d42", license: "MIT", take: 886 },
  { repo: "AgentWorkers/skills", commit: "1e90d6049ff1436194cb2cd882582fccc6ae38d0", license: "MIT", take: 100 },
  { repo: "obra/superpowers", commit: "44c9b2d6e889982ac18c27d05a19fefe335194e1", license: "MIT", take: 14 }
]

const gitDirs = new Map(process.argv.slice(2).map((argument) => argument.split("=", 2)))
const git = (gitDir, ...args) => execFileSync("git", [`--git-dir=${gitDir}`, ...args], { maxBuffer: 1 << 30 })

const collections = COLLECTIONS.map(({ repo, commit, license, take }) => {
  const gitDir = gitDirs.get(repo)
  if (gitDir === undefined) throw new Error(`no git directory given for ${repo}`)
  const listing = git(gitDir, "ls-tree", "-r", commit, "--format=%(objectname) %(path)")
    .toString("utf8")
    .split("\n")
    .filter((line) => /(^|\/)SKILL\.md$/.test(line))
    .map((line) => ({ blob: line.slice(0, line.indexOf(" ")), path: line.slice(line.indexOf(" ") + 1) }))
    .toSorted((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  if (listing.length < take) throw new Error(`${repo} has ${listing.length} SKILL.md files, fewer than ${take}`)
  const picked = Array.from({ length: take }, (_, index) => listing[Math.floor((index * listing.length) / take)])
  const files = picked.map(({ blob, path }) => ({ path, text: git(gitDir, "cat-file", "blob", blob).toString("utf8") }))
  return { repo, commit, license, files }
})

writeFileSync(new URL("./skills.json.gz", import.meta.url), gzipSync(JSON.stringify({ collections }), { level: 9 }))
for (const { repo, files } of collections) process.stdout.write(`${repo}: ${files.length} files\n`)
