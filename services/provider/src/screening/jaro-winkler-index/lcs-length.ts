/**
 * The length of the longest common subsequence of `query` and any text, bit-parallel (Allison and Dix; Hyyrö,
 * "Bit-parallel LCS-length computation revisited", 2004): one pass over the text, a few word operations per
 * character, where the textbook table takes |query| × |text| steps.
 *
 * @example lcsLengthWith('PUTIN')('TURIN') // 3 (U, I, N)
 */
export function lcsLengthWith(query: string): (text: string) => number {
  const a = query.length
  const words = (a + 31) >>> 5
  // Where each character occurs in the query: ASCII in a flat table, anything else in a map.
  const ascii = new Int32Array(128 * words)
  const other = new Map<number, Int32Array>()
  for (let i = 0; i < a; i += 1) {
    const code = query.charCodeAt(i)
    const bit = 1 << (i & 31)
    if (code < 128) ascii[code * words + (i >>> 5)] = (ascii[code * words + (i >>> 5)] as number) | bit
    else {
      const mask = other.get(code) ?? other.set(code, new Int32Array(words)).get(code)!
      mask[i >>> 5] = (mask[i >>> 5] as number) | bit
    }
  }
  const top = (a & 31) === 0 ? -1 : (1 << (a & 31)) - 1
  if (words === 1) {
    // Most names and parts fit one word: no carries between words, no row to reset.
    return (text) => {
      let row = -1
      for (let j = 0; j < text.length; j += 1) {
        const code = text.charCodeAt(j)
        const occurrences = code < 128 ? (ascii[code] as number) : (other.get(code)?.[0] ?? 0)
        const u = row & occurrences
        row = (row + u) | (row & ~u)
      }
      return a - popcount(row & top)
    }
  }
  const row = new Int32Array(words)
  return (text) => {
    row.fill(-1)
    for (let j = 0; j < text.length; j += 1) {
      const code = text.charCodeAt(j)
      let occurrences: Int32Array | undefined
      let at = 0
      if (code < 128) {
        occurrences = ascii
        at = code * words
      } else occurrences = other.get(code)
      if (!occurrences) continue
      let carry = 0
      for (let w = 0; w < words; w += 1) {
        const v = row[w] as number
        const u = v & (occurrences[at + w] as number)
        const sum = (v >>> 0) + (u >>> 0) + carry
        carry = sum > 0xffffffff ? 1 : 0
        // V ← (V + U) | (V − U), and V − U is V & ~U since U ⊆ V.
        row[w] = sum | 0 | (v & ~u)
      }
    }
    let ones = 0
    for (let w = 0; w < words; w += 1)
      ones += popcount(w === words - 1 ? (row[w] as number) & top : (row[w] as number))
    return a - ones
  }
}

function popcount(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555)
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333)
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) as number
}
