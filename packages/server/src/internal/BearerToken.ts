import { createHash, timingSafeEqual } from "node:crypto"

const digest = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest()

/**
 * Whether a presented token is the expected one, in time that depends on neither: both are hashed
 * to equal-length digests first (the expected one once), so not even the length of the secret leaks.
 */
export const tokenMatcher = (expected: string): ((presented: string) => boolean) => {
  const expectedDigest = digest(expected)
  return (presented) => timingSafeEqual(expectedDigest, digest(presented))
}
