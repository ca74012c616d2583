/**
 * An inverted index of tokens for prefix search, in flat typed arrays (compact for millions of records):
 * - `vocabulary`: the distinct tokens, sorted, so the tokens starting with a prefix are one id range [lo, hi);
 * - postings: for token id t, the record ids `postings[offsets[t] .. offsets[t+1])`, ascending;
 * - per record, its token ids `recordTokens[recordOffsets[r] .. recordOffsets[r+1])`.
 * Because the vocabulary is sorted, the postings of a whole prefix range are one contiguous slice, and its
 * size is known in O(1): that is how the search picks its most selective filter.
 */
export class TokenIndex {
  private constructor(
    readonly vocabulary: string[],
    private readonly offsets: Int32Array,
    private readonly postings: Int32Array,
    private readonly recordOffsets: Int32Array,
    private readonly recordTokens: Int32Array,
  ) {}

  static build(tokensPerRecord: readonly (readonly string[])[]): TokenIndex {
    const counts = new Map<string, number>()
    for (const tokens of tokensPerRecord)
      for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1)
    const vocabulary = [...counts.keys()].sort()
    const idOf = new Map(vocabulary.map((token, id) => [token, id]))
    const offsets = new Int32Array(vocabulary.length + 1)
    vocabulary.forEach((token, id) => (offsets[id + 1] = (offsets[id] ?? 0) + (counts.get(token) ?? 0)))
    const postings = new Int32Array(offsets[vocabulary.length] ?? 0)
    const cursor = offsets.slice(0, vocabulary.length)
    const recordOffsets = new Int32Array(tokensPerRecord.length + 1)
    const recordTokens = new Int32Array(postings.length)
    let written = 0
    tokensPerRecord.forEach((tokens, record) => {
      for (const token of tokens) {
        const id = idOf.get(token) as number
        postings[(cursor[id] as number)++] = record
        recordTokens[written++] = id
      }
      recordOffsets[record + 1] = written
    })
    return new TokenIndex(vocabulary, offsets, postings, recordOffsets, recordTokens)
  }

  /** Token ids [lo, hi) of the tokens that start with `prefix`. */
  prefixRange(prefix: string): [number, number] {
    return [this.lowerBound(prefix), this.lowerBound(`${prefix}\uffff`)]
  }

  /** How many postings a token range holds (an upper bound of its records). */
  postingCount([lo, hi]: [number, number]): number {
    return (this.offsets[hi] ?? 0) - (this.offsets[lo] ?? 0)
  }

  /** The record ids of a token range: ascending when the range is one token, else in token order. */
  postingSlice([lo, hi]: [number, number]): Int32Array {
    return this.postings.subarray(this.offsets[lo], this.offsets[hi])
  }

  /** True when the record has a token in the range. */
  recordHas(record: number, [lo, hi]: [number, number]): boolean {
    const end = this.recordOffsets[record + 1] ?? 0
    for (let i = this.recordOffsets[record] ?? 0; i < end; i += 1) {
      const token = this.recordTokens[i] as number
      if (token >= lo && token < hi) return true
    }
    return false
  }

  private lowerBound(value: string): number {
    let lo = 0
    let hi = this.vocabulary.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if ((this.vocabulary[mid] as string) < value) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}
