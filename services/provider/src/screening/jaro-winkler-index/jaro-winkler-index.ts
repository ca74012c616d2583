import { countLetters, LETTER_BINS, letterProfile, type LetterProfile } from './letter-counts'
import { LackCounter, PER_BIN, type PrefixRule, type SurvivorSink } from './lack-counter'
import { spareByLength, type Spare } from './spare-by-length'
import type { Tick } from '../search-budget'
import { SurvivorCheck } from './survivor-check'

/** Strings of one initial and one second character: positions [start, end) of `byPrefix`, by length. */
interface PrefixRun {
  second: number
  start: number
  end: number
}

/**
 * Finds, among many strings, every one whose Jaro-Winkler with a query reaches a floor, computing it for few
 * others. Jaro-Winkler needs many equal characters: a string may lack only so many of the query's characters,
 * the fewer the shorter the prefix it shares with the query (`spareByLength`). So the strings are laid out by
 * initial, second character and length (and, to search across initials, by length alone), and a
 * `LackCounter` keeps, within the lengths that can reach the floor, those lacking no more than allowed:
 * - strings with the query's first two characters: allowed as for a shared prefix of 4 (the most it can be);
 * - with its initial only: as for a prefix of 1;
 * - with another initial: as for no prefix, the strictest.
 * Survivors are checked on the letters they share (from the counters) against what their length and exact prefix
 * need, then on the bound their longest common subsequence with the query sets on transpositions, then scored
 * (`SurvivorCheck`).
 * Character-occurrence postings and trees over character counts were tried first and read more: letters are
 * few, and even a query's rarest occurrences are held by a fifth of all names.
 */
export class JaroWinklerIndex {
  /** `spareByLength` answers: few distinct (length, floor, prefix) triples come up, and each is a loop. */
  private readonly spares = new Map<string, Spare>()
  /** The `SurvivorCheck` table of every search (one search at a time), grown to the longest query's. */
  private needs = new Uint8Array(0)

  private constructor(
    private readonly strings: readonly string[],
    /** How many strings hold each occurrence token: the query's rarest are counted first. */
    private readonly holders: Int32Array,
    private readonly byPrefix: LackCounter,
    private readonly runs: Map<number, PrefixRun[]>,
    /** Absent unless built `acrossInitials`. */
    private readonly byLength: LackCounter | undefined,
    private readonly maxLength: number,
  ) {}

  /** With `acrossInitials`, it can also search strings whatever their initial (at twice the memory). */
  static build(strings: readonly string[], { acrossInitials = false } = {}): JaroWinklerIndex {
    const counts = new Uint8Array(strings.length * LETTER_BINS)
    strings.forEach((text, id) => countLetters(text, counts, id * LETTER_BINS))
    const holders = new Int32Array(LETTER_BINS * PER_BIN)
    for (let id = 0; id < strings.length; id += 1)
      for (let bin = 0; bin < LETTER_BINS; bin += 1)
        for (let k = 0; k < Math.min(counts[id * LETTER_BINS + bin] as number, PER_BIN); k += 1)
          holders[bin * PER_BIN + k] = (holders[bin * PER_BIN + k] as number) + 1
    const second = (id: number) => (strings[id]!.length > 1 ? strings[id]!.charCodeAt(1) : -1)
    const prefixOrder = Int32Array.from(strings.keys()).sort(
      (x, y) =>
        strings[x]!.charCodeAt(0) - strings[y]!.charCodeAt(0) ||
        second(x) - second(y) ||
        strings[x]!.length - strings[y]!.length ||
        x - y,
    )
    const runs = new Map<number, PrefixRun[]>()
    prefixOrder.forEach((id, position) => {
      const initial = strings[id]!.charCodeAt(0)
      const list = runs.get(initial) ?? runs.set(initial, []).get(initial)!
      const run = list.at(-1)
      if (run && run.second === second(id)) run.end = position + 1
      else list.push({ second: second(id), start: position, end: position + 1 })
    })
    const lengthOrder = acrossInitials
      ? Int32Array.from(strings.keys()).sort((x, y) => strings[x]!.length - strings[y]!.length || x - y)
      : undefined
    return new JaroWinklerIndex(
      strings,
      holders,
      LackCounter.build(strings, counts, prefixOrder, { headsFrom: 2 }),
      runs,
      lengthOrder && LackCounter.build(strings, counts, lengthOrder),
      strings.reduce((max, text) => Math.max(max, text.length), 0),
    )
  }

  /**
   * Calls `visit(id, similarity)` for each string whose Jaro-Winkler with `query` is at least `floor`: among
   * the strings that start like the query, or (`sameInitial: false`, on an index built `acrossInitials`)
   * among all.
   */
  forEachAtLeast(
    query: string,
    floor: number,
    sameInitial: boolean,
    visit: (id: number, similarity: number) => void,
    tick: Tick,
  ): void {
    const a = query.length
    if (a === 0) return
    if (!sameInitial && !this.byLength)
      throw new TypeError('this JaroWinklerIndex was not built acrossInitials')
    const tokens = this.queryTokens(letterProfile(query))
    const initial = query.charCodeAt(0)
    const size = SurvivorCheck.tableSize(a)
    if (this.needs.length < size) this.needs = new Uint8Array(size)
    const check = new SurvivorCheck(query, floor, this.strings, visit, this.needs)
    try {
      const second = a > 1 ? query.charCodeAt(1) : -1
      const both: PrefixRule = {
        shared: 2,
        third: a > 2 ? query.charCodeAt(2) : -1,
        fourth: a > 3 ? query.charCodeAt(3) : -1,
        spares: [this.spare(a, floor, 2).spare, this.spare(a, floor, 3).spare, this.spare(a, floor, 4).spare],
      }
      const one: PrefixRule = { shared: 1 }
      const [spareOne, spareBoth] = [this.spare(a, floor, 1), this.spare(a, floor, 4)]
      for (const run of this.runs.get(initial) ?? []) {
        const shared = run.second === second
        this.survivorsIn(this.byPrefix, run.start, run.end, shared ? spareBoth : spareOne, tokens, {
          rule: shared ? both : one,
          sink: check,
          tick,
        })
      }
      if (!sameInitial && this.byLength) {
        // Strings of the query's initial were all seen above (rule 0's sink leaves them out).
        const across = this.byLength
        const rule: PrefixRule = { shared: 0 }
        this.survivorsIn(across, 0, across.order.length, this.spare(a, floor, 0), tokens, {
          rule,
          sink: check,
          tick,
        })
      }
      check.flush()
    } finally {
      check.release()
    }
  }

  private spare(a: number, floor: number, prefix: number): Spare {
    const key = `${a} ${prefix} ${floor}`
    let spare = this.spares.get(key)
    if (!spare) {
      if (this.spares.size >= 1024) this.spares.clear()
      spare = spareByLength(a, floor, prefix, this.maxLength)
      this.spares.set(key, spare)
    }
    return spare
  }

  private survivorsIn(
    layout: LackCounter,
    start: number,
    end: number,
    { spare, shortest, longest }: Spare,
    tokens: Int32Array,
    offers: { rule: PrefixRule; sink: SurvivorSink; tick: Tick },
  ): void {
    if (longest < shortest) return
    const from = layout.firstLonger(start, end, shortest - 1)
    layout.survivors(from, layout.firstLonger(from, end, longest), spare, tokens, offers)
  }

  /** The query's occurrence tokens (at most 8 per bin), those the fewest strings hold first. */
  private queryTokens(profile: LetterProfile): Int32Array {
    const tokens: number[] = []
    profile.bins.forEach((bin, k) => {
      for (let n = 0; n < Math.min(profile.counts[k] as number, PER_BIN); n += 1)
        tokens.push(bin * PER_BIN + n)
    })
    return Int32Array.from(tokens).sort((x, y) => (this.holders[x] as number) - (this.holders[y] as number))
  }
}
