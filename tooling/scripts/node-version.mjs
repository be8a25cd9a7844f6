// Plain semver comparison for "x.y.z >= minimum": the bootstrap runs before any dependency exists.
const parts = (version) => version.replace(/^v/, "").split(".").map((part) => Number.parseInt(part, 10) || 0)

/** @param {string} version @param {string} minimum */
export const satisfiesMinimum = (version, minimum) => {
  const have = parts(version)
  const need = parts(minimum)
  for (let index = 0; index < Math.max(have.length, need.length); index++) {
    const difference = (have[index] ?? 0) - (need[index] ?? 0)
    if (difference !== 0) return difference > 0
  }
  return true
}
