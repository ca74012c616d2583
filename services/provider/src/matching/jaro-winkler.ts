// Reused match flags: names are short, and allocating two arrays per comparison dominated the profile.
let flagsA = new Uint8Array(64)
let flagsB = new Uint8Array(64)

/** Jaro similarity (0..1) of two strings, compared by UTF-16 code unit. */
export function jaro(a: string, b: string): number {
  return jaroAtLeast(a, b, 0)
}

/**
 * Jaro similarity of `a` and `b`, or −1 as soon as fewer than `minMatches` characters can still match (the
 * caller has worked out that the pair cannot reach its floor then). Otherwise exactly `jaro(a, b)`.
 */
export function jaroAtLeast(a: string, b: string, minMatches: number): number {
  if (a === b) return 1
  const la = a.length
  const lb = b.length
  if (la === 0 || lb === 0) return 0
  if (la > flagsA.length) flagsA = new Uint8Array(la * 2)
  if (lb > flagsB.length) flagsB = new Uint8Array(lb * 2)
  flagsA.fill(0, 0, la)
  flagsB.fill(0, 0, lb)
  const window = Math.max(0, Math.floor(Math.max(la, lb) / 2) - 1)
  let matches = 0
  for (let i = 0; i < la; i += 1) {
    const code = a.charCodeAt(i)
    const end = Math.min(lb, i + window + 1)
    for (let j = Math.max(0, i - window); j < end; j += 1) {
      if (flagsB[j] === 0 && b.charCodeAt(j) === code) {
        flagsA[i] = 1
        flagsB[j] = 1
        matches += 1
        break
      }
    }
    // Even if every later character of a matched, too few would.
    if (matches + (la - 1 - i) < minMatches) return -1
  }
  if (matches === 0) return 0
  let transpositions = 0
  let k = 0
  for (let i = 0; i < la; i += 1) {
    if (flagsA[i] === 0) continue
    while (flagsB[k] === 0) k += 1
    if (a.charCodeAt(i) !== b.charCodeAt(k)) transpositions += 1
    k += 1
  }
  return jaroOf(matches, transpositions, la, lb)
}

/**
 * Jaro from its counts: `matches` characters of strings `la` and `lb` long, `transpositions` of them out of
 * order (each counted once; half of them make the transpositions). The one formula whoever counted them.
 */
export function jaroOf(matches: number, transpositions: number, la: number, lb: number): number {
  if (matches === 0) return 0
  return (matches / la + matches / lb + (matches - transpositions / 2) / matches) / 3
}

/** Length of the common prefix of `a` and `b` that Jaro-Winkler counts (at most 4 characters). */
export function winklerPrefix(a: string, b: string): number {
  const max = Math.min(4, a.length, b.length)
  let prefix = 0
  while (prefix < max && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix += 1
  return prefix
}

/** Jaro-Winkler similarity: Jaro boosted by the common prefix (up to 4 characters, scaling 0.1). */
export function jaroWinkler(a: string, b: string): number {
  return boost(jaro(a, b), winklerPrefix(a, b))
}

/** Jaro boosted by a common prefix of `prefix` characters (at most 4), as Winkler does. */
export const boost = (similarity: number, prefix: number) => similarity + prefix * 0.1 * (1 - similarity)
