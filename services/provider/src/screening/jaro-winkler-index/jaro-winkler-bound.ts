import { boost, jaroAtLeast, winklerPrefix } from '../../matching/jaro-winkler'

/** Slack on every bound: a floating-point rounding must never prune a pair that reaches the floor. */
export const BOUND_SLACK = 1e-9

/**
 * The fewest matching characters two strings of lengths `a` and `b` with a common prefix of `prefix` need for
 * their Jaro-Winkler to reach `floor`; more than `min(a, b)` means they never can, 0 that any pair may.
 *
 * Jaro-Winkler is J + 0.1·p·(1 − J) with p the common prefix (at most 4), so it reaches the floor only when
 * J ≥ (floor − 0.1p) / (1 − 0.1p); and J = (m/a + m/b + (m − t)/m) / 3 ≤ (m/a + m/b + 1) / 3 for m matching
 * characters and t transpositions, so m ≥ (3·Jmin − 1) · ab / (a + b).
 */
export function minJaroWinklerMatches(a: number, b: number, prefix: number, floor: number): number {
  const p = Math.min(prefix, 4)
  const jaroMin = (floor - 0.1 * p) / (1 - 0.1 * p)
  const needed = 3 * jaroMin - 1
  if (needed <= 0) return 0
  return Math.max(1, Math.ceil((needed * a * b) / (a + b) - BOUND_SLACK))
}

/**
 * Upper bound of Jaro-Winkler(a, b) from what is cheap to know: at most `matches` characters match (their
 * character counts), the longest common subsequence has `lcs` characters, and the prefix is `prefix`.
 * With m matches of which d are out of order, Jaro is (m/a + m/b + (m − d/2)/m) / 3, and the m − d in order
 * form a common subsequence, so m − d ≤ lcs. The bound is convex in m past lcs: its largest value is at
 * m = min(lcs, matches) or m = matches.
 */
export function jaroWinklerBound(a: number, b: number, prefix: number, matches: number, lcs: number): number {
  const jaro = (m: number) =>
    m < 1 ? 0 : (m / a + m / b + Math.min(1, (m + Math.min(lcs, m)) / (2 * m))) / 3
  const best = Math.max(jaro(Math.min(lcs, matches)), jaro(matches))
  return best + 0.1 * Math.min(prefix, 4) * (1 - best)
}

/**
 * `jaroWinkler(a, b)` when it reaches `floor`, else −1 (found out early where it can be: `jaroAtLeast` with the
 * fewest matches the floor needs).
 */
export function jaroWinklerAtLeast(a: string, b: string, floor: number): number {
  const prefix = winklerPrefix(a, b)
  const needed = minJaroWinklerMatches(a.length, b.length, prefix, floor)
  if (needed > Math.min(a.length, b.length)) return -1
  const similarity = jaroAtLeast(a, b, needed)
  if (similarity < 0) return -1
  const value = boost(similarity, prefix)
  return value >= floor ? value : -1
}
