// Reused match flags: names are short, and allocating two arrays per comparison dominated the profile.
let flagsA = new Uint8Array(64)
let flagsB = new Uint8Array(64)

/** Jaro similarity (0..1) of two strings, compared by UTF-16 code unit. */
export function jaro(a: string, b: string): number {
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
  const similarity = jaro(a, b)
  let prefix = 0
  const max = Math.min(4, a.length, b.length)
  while (prefix < max && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix += 1
  return similarity + prefix * 0.1 * (1 - similarity)
}
