import { minJaroWinklerMatches, winklerPrefix } from './jaro-winkler-bound'

// Reused match flags: names are short, and allocating two arrays per comparison dominated the profile.
let flagsA = new Uint8Array(64)
let flagsB = new Uint8Array(64)
/** The codes of `a` that matched, in order (`jaroByMasks`). */
let matchedCodes = new Int32Array(64)
/**
 * Where each UTF-16 code is in the second string, as bits of two 32-bit words (its first 64 characters): set for
 * one comparison and cleared after it, so that a character finds its first free match in its window with a few
 * bit operations instead of a loop over the window (up to 60 reads for names of 30 characters).
 */
const lowPositions = new Int32Array(65536)
const highPositions = new Int32Array(65536)

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
  if (la > matchedCodes.length) matchedCodes = new Int32Array(la * 2)
  if (lb > 64) return jaroByScan(a, b, minMatches)
  for (let j = 0; j < lb; j += 1) {
    const code = b.charCodeAt(j)
    if (j < 32) lowPositions[code] = (lowPositions[code] as number) | (1 << j)
    else highPositions[code] = (highPositions[code] as number) | (1 << (j - 32))
  }
  const similarity = jaroByMasks(a, b, minMatches)
  for (let j = 0; j < lb; j += 1) {
    const code = b.charCodeAt(j)
    lowPositions[code] = 0
    highPositions[code] = 0
  }
  return similarity
}

/** Bits [from, to) of a 32-bit word, the bounds clamped to [0, 32]. */
function bitsBetween(from: number, to: number): number {
  if (to <= from || to <= 0 || from >= 32) return 0
  const below = to >= 32 ? -1 : (1 << to) - 1
  return from <= 0 ? below : below & ~((1 << from) - 1)
}

/**
 * `jaroAtLeast` with `b`'s positions set (at most 64): each character of `a` in turn takes the first free
 * position of `b` holding it in its window, as the scan does, so the matches and transpositions are the scan's.
 */
function jaroByMasks(a: string, b: string, minMatches: number): number {
  const la = a.length
  const lb = b.length
  const window = Math.max(0, Math.floor(Math.max(la, lb) / 2) - 1)
  let usedLow = 0
  let usedHigh = 0
  let matches = 0
  for (let i = 0; i < la; i += 1) {
    const code = a.charCodeAt(i)
    const from = i - window
    const to = Math.min(lb, i + window + 1)
    const low = (lowPositions[code] as number) & ~usedLow & bitsBetween(from, to)
    if (low !== 0) {
      usedLow |= low & -low
      matchedCodes[matches] = code
      matches += 1
    } else {
      const high = (highPositions[code] as number) & ~usedHigh & bitsBetween(from - 32, to - 32)
      if (high !== 0) {
        usedHigh |= high & -high
        matchedCodes[matches] = code
        matches += 1
      }
    }
    // Even if every later character of a matched, too few would.
    if (matches + (la - 1 - i) < minMatches) return -1
  }
  if (matches === 0) return 0
  // The matched positions of b in order, against a's matched characters in order.
  let transpositions = 0
  let k = 0
  for (let word = 0; word < 2; word += 1) {
    let rest = word === 0 ? usedLow : usedHigh
    while (rest !== 0) {
      const bit = rest & -rest
      rest ^= bit
      if (b.charCodeAt(32 * word + 31 - Math.clz32(bit)) !== matchedCodes[k]) transpositions += 1
      k += 1
    }
  }
  return (matches / la + matches / lb + (matches - transpositions / 2) / matches) / 3
}

/** `jaroAtLeast` by scanning each character's window: for a second string over 64 characters. */
function jaroByScan(a: string, b: string, minMatches: number): number {
  const la = a.length
  const lb = b.length
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
  return (matches / la + matches / lb + (matches - transpositions / 2) / matches) / 3
}

/** Jaro-Winkler similarity: Jaro boosted by the common prefix (up to 4 characters, scaling 0.1). */
export function jaroWinkler(a: string, b: string): number {
  return boost(jaro(a, b), winklerPrefix(a, b))
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

const boost = (similarity: number, prefix: number) => similarity + prefix * 0.1 * (1 - similarity)
