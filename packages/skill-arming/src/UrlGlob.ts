import { globToRegExpSource } from "./internal/Glob.js"

/**
 * URL globs: `host[:port]/path` patterns matched against a URL reduced to the same shape. Scheme,
 * userinfo, default port, query and fragment never take part; matching is case-insensitive.
 */

const SCHEME_WITH_AUTHORITY = /^[a-z][a-z0-9+.-]*:\/\//i
const SCHEME_WITHOUT_AUTHORITY = /^[a-z][a-z0-9+.-]*:(?!\d)/i
const NON_ASCII_CHARS = /\P{ASCII}/gu
const HAS_NON_ASCII = /\P{ASCII}/u
const WILDCARD = /[*?]/

export interface UrlGlob {
  /** The glob as declared. */
  readonly glob: string
  /** The lowercased literal host (with port) when the host part has no wildcard; else undefined. */
  readonly literalHost: string | undefined
  /** Why this glob is risky, when it is: a host that ends in a wildcard matches look-alike hosts. */
  readonly warning: string | undefined
  matches(subject: string): boolean
}

/**
 * The form a URL is matched in: `host[:port]` plus the path, without a lone `/` path. Undefined
 * when the text is not a URL (a URL without a scheme is read as `http://…`).
 */
export const normalizeUrl = (url: string): string | undefined => {
  const trimmed = url.trim()
  const withScheme =
    SCHEME_WITH_AUTHORITY.test(trimmed) || SCHEME_WITHOUT_AUTHORITY.test(trimmed) ? trimmed : `http://${trimmed}`
  let parsed: URL
  try {
    parsed = new URL(withScheme)
  } catch {
    return undefined
  }
  const path = parsed.pathname === "/" ? "" : parsed.pathname
  return `${parsed.host}${path}`.toLowerCase()
}

const splitHost = (glob: string): { readonly host: string; readonly path: string } => {
  const slash = glob.indexOf("/")
  return slash === -1 ? { host: glob, path: "" } : { host: glob.slice(0, slash), path: glob.slice(slash) }
}

const hostWithoutPort = (host: string): string => {
  const colon = host.lastIndexOf(":")
  return colon !== -1 && /^[\d*?]*$/.test(host.slice(colon + 1)) ? host.slice(0, colon) : host
}

/** Percent-encodes non-ASCII path characters the way `new URL()` does, so both sides agree. */
const encodePath = (path: string): string =>
  path.replace(NON_ASCII_CHARS, (char) => {
    try {
      return encodeURIComponent(char)
    } catch {
      // A lone surrogate cannot be encoded; it can never appear in a parsed URL either.
      return char
    }
  })

/** An internationalised host in the punycode form `new URL()` gives the URL being matched. */
const toAsciiHost = (host: string): string => {
  if (WILDCARD.test(host) || !HAS_NON_ASCII.test(host)) return host
  const name = hostWithoutPort(host)
  try {
    return `${new URL(`http://${name}`).hostname}${host.slice(name.length)}`
  } catch {
    return host
  }
}

const riskOf = (host: string): string | undefined => {
  if (host.startsWith("**")) return "the glob starts with `**`, so it matches every host"
  const name = hostWithoutPort(host)
  return WILDCARD.test(name.at(-1) ?? "")
    ? `its host part \`${name}\` ends in a wildcard, so it also matches look-alike hosts such as \`${name.replace(/[*?]+$/, "")}.evil.example\``
    : undefined
}

/** Compiles a URL glob; its regular expression is built on first use, since most globs of a large set are never tested. */
export const compileUrlGlob = (glob: string): UrlGlob => {
  const withoutScheme = glob.trim().replace(SCHEME_WITH_AUTHORITY, "")
  const { host, path } = splitHost(withoutScheme.toLowerCase())
  const asciiHost = toAsciiHost(host)
  let pattern: RegExp | undefined
  const compile = () => {
    const normalizedPath = path === "/" ? "" : encodePath(path).toLowerCase()
    return new RegExp(`^${globToRegExpSource(`${asciiHost}${normalizedPath}`)}$`, "s")
  }
  return {
    glob,
    literalHost: WILDCARD.test(asciiHost) || withoutScheme.startsWith("**") ? undefined : asciiHost,
    warning: riskOf(host),
    matches: (subject) => {
      pattern ??= compile()
      return pattern.test(subject)
    }
  }
}
