import { createHash, timingSafeEqual } from "node:crypto"
import { NetAddress } from "effect/net"

/** Whether `host` (a name, an IPv4 address, or an IPv6 address with or without brackets) is this machine's loopback. */
export const isLoopbackHost = (host: string): boolean => {
  const name = host.toLowerCase()
  return name === "localhost" || name === "::1" || name === "[::1]" || /^127(?:\.\d{1,3}){3}$/.test(name)
}

/** A host as it appears in a `Host` header: IPv6 in brackets, lowercased. */
const authorityHost = (host: string): string => {
  const name = host.toLowerCase()
  return name.includes(":") && !name.startsWith("[") ? `[${name}]` : name
}

/**
 * The exact `Host` values a server listening on `address` answers to: its host, `localhost` as
 * well when it is loopback, and the extra names, each at its port (and bare when the port is 80, the
 * default a client leaves out). Anything else, another port or trailing text included, names some
 * other server: the DNS-rebinding defence of every loopback server a host runs. A server on a Unix
 * socket has no host to check against, so only the extra names are.
 */
export const hostAuthorities = (address: NetAddress.SocketAddress, extraHosts: ReadonlyArray<string>): ReadonlySet<string> => {
  if (!NetAddress.isInetAddress(address)) return new Set(extraHosts.map(authorityHost))
  const host = NetAddress.formatHost(address)
  const names = new Set([authorityHost(host), ...(isLoopbackHost(host) ? ["localhost"] : []), ...extraHosts.map(authorityHost)])
  return new Set([...names].flatMap((name) => (address.port === 80 ? [`${name}:${address.port}`, name] : [`${name}:${address.port}`])))
}

const digest = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest()

/**
 * Whether a presented token is the expected one, in time that depends on neither: both are hashed
 * to equal-length digests first (the expected one once), so not even the length of the secret leaks.
 */
export const tokenMatcher = (expected: string): ((presented: string) => boolean) => {
  const expectedDigest = digest(expected)
  return (presented) => timingSafeEqual(expectedDigest, digest(presented))
}
