/** How a language writes comments, as far as finding them line by line needs. */
export interface CommentSyntax {
  /** Markers that comment out the rest of the line. */
  readonly line: ReadonlyArray<string>
  /** Opening and closing markers of comments that may span lines, tried before the line markers. */
  readonly block: ReadonlyArray<readonly [open: string, close: string]>
  /** Quote characters that open a string on the same line, inside which no marker counts. */
  readonly quotes: ReadonlyArray<string>
  /** A line marker counts only at the line's start or after whitespace (`$#` in a shell, `a#b` in YAML are not comments). */
  readonly lineMarkerAfterSpace?: boolean
  /** A line that opens with `*` continues a block comment whose opening the edit did not show. */
  readonly starContinuation?: boolean
}

const C_LIKE: CommentSyntax = { line: ["//"], block: [["/*", "*/"]], quotes: ['"', "'", "`"], starContinuation: true }
/** Rust and Zig: `'` opens lifetimes and labels as often as characters, so only `"` opens a string. */
const C_LIKE_DOUBLE_QUOTED: CommentSyntax = { line: ["//"], block: [["/*", "*/"]], quotes: ['"'], starContinuation: true }
const CSS: CommentSyntax = { line: [], block: [["/*", "*/"]], quotes: ['"', "'"], starContinuation: true }
const CSS_WITH_LINE: CommentSyntax = { ...CSS, line: ["//"] }
const HASH: CommentSyntax = { line: ["#"], block: [], quotes: ['"', "'"] }
const SHELL: CommentSyntax = { ...HASH, lineMarkerAfterSpace: true }
const PHP: CommentSyntax = { line: ["//", "#"], block: [["/*", "*/"]], quotes: ['"', "'"], starContinuation: true }
const SQL: CommentSyntax = { line: ["--"], block: [["/*", "*/"]], quotes: ["'", '"'] }
const LUA: CommentSyntax = { line: ["--"], block: [["--[[", "]]"]], quotes: ['"', "'"] }
const HASKELL: CommentSyntax = { line: ["--"], block: [["{-", "-}"]], quotes: ['"'] }
const JULIA: CommentSyntax = { line: ["#"], block: [["#=", "=#"]], quotes: ['"'] }
const LISP: CommentSyntax = { line: [";"], block: [], quotes: ['"'] }
const INI: CommentSyntax = { line: [";", "#"], block: [], quotes: [], lineMarkerAfterSpace: true }
const PERCENT: CommentSyntax = { line: ["%"], block: [], quotes: ['"'] }
/** Markup: quotes are apostrophes in prose more often than strings. */
const MARKUP: CommentSyntax = { line: [], block: [["<!--", "-->"]], quotes: [] }
/** Single-file components: markup around script and style. */
const COMPONENT: CommentSyntax = { line: ["//"], block: [["<!--", "-->"], ["/*", "*/"]], quotes: ['"', "`"], starContinuation: true }

const BY_EXTENSION: ReadonlyArray<readonly [CommentSyntax, ReadonlyArray<string>]> = [
  [C_LIKE, ["ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs", "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "hxx", "m", "mm", "cs", "java", "kt", "kts", "go", "swift", "scala", "sc", "dart", "groovy", "gradle", "proto", "sol", "fs", "fsx", "jsonc", "json5", "v", "d"]],
  [C_LIKE_DOUBLE_QUOTED, ["rs", "zig"]],
  [CSS, ["css"]],
  [CSS_WITH_LINE, ["scss", "less", "sass"]],
  [HASH, ["py", "pyi", "pyw", "rb", "pl", "pm", "r", "toml", "ex", "exs", "nim", "cr", "coffee", "cmake", "tf", "hcl", "ps1", "psm1", "gd", "mk", "ipynb"]],
  [SHELL, ["sh", "bash", "zsh", "fish", "ksh", "yaml", "yml", "dockerfile", "makefile", "conf", "properties", "env", "gitignore"]],
  [PHP, ["php"]],
  [SQL, ["sql", "ada", "adb", "elm"]],
  [LUA, ["lua"]],
  [HASKELL, ["hs", "lhs"]],
  [JULIA, ["jl"]],
  [LISP, ["lisp", "el", "clj", "cljs", "cljc", "edn", "scm", "rkt", "asm", "s"]],
  [INI, ["ini", "cfg"]],
  [PERCENT, ["tex", "sty", "erl", "hrl"]],
  [MARKUP, ["html", "htm", "xml", "svg", "xhtml", "md", "mdx", "markdown"]],
  [COMPONENT, ["vue", "svelte", "astro"]]
]

const SYNTAX = new Map(BY_EXTENSION.flatMap(([syntax, extensions]) => extensions.map((extension) => [extension, syntax] as const)))

/** Files known by name rather than extension. */
const BY_NAME = new Map<string, string>([
  ["dockerfile", "dockerfile"],
  ["containerfile", "dockerfile"],
  ["makefile", "makefile"],
  ["gnumakefile", "makefile"],
  ["rakefile", "rb"],
  ["gemfile", "rb"],
  ["justfile", "makefile"],
  ["cmakelists.txt", "cmake"],
  [".bashrc", "sh"],
  [".zshrc", "sh"],
  [".profile", "sh"]
])

/**
 * The comment syntax of a file, from `syntax` (an extension such as `py`, when the path does not
 * say, e.g. a notebook's Markdown cell) or the path's extension or well-known name. Undefined for
 * a language it does not know: no comment can be told apart there.
 */
export const commentSyntaxOf = (path: string, syntax?: string): CommentSyntax | undefined => {
  if (syntax !== undefined) return SYNTAX.get(syntax.toLowerCase().replace(/^\./, ""))
  const name = (path.slice(path.lastIndexOf("/") + 1) || path).toLowerCase()
  const known = BY_NAME.get(name)
  if (known !== undefined) return SYNTAX.get(known)
  const dot = name.lastIndexOf(".")
  if (dot === -1) return undefined
  return SYNTAX.get(name.slice(dot + 1))
}
