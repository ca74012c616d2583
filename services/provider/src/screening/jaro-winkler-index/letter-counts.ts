/** Characters are counted in 32 bins by code modulo 32: A-Z each have their own; collisions only loosen bounds. */
export const LETTER_BINS = 32

/** Adds the character counts of `text` into `into[at .. at + 32)`, each capped at 255. */
export function countLetters(text: string, into: Uint8Array, at: number): void {
  for (let i = 0; i < text.length; i += 1) {
    const slot = at + (text.charCodeAt(i) & 31)
    if ((into[slot] as number) < 255) into[slot] = (into[slot] as number) + 1
  }
}

/** A text's character counts as (bin, count) pairs of its non-empty bins: what `sharedLetters` walks. */
export interface LetterProfile {
  bins: Int32Array
  counts: Int32Array
}

export function letterProfile(text: string): LetterProfile {
  const counts = new Uint8Array(LETTER_BINS)
  countLetters(text, counts, 0)
  const bins: number[] = []
  counts.forEach((count, bin) => {
    if (count > 0) bins.push(bin)
  })
  return { bins: Int32Array.from(bins), counts: Int32Array.from(bins, (bin) => counts[bin] as number) }
}

/**
 * How many characters of a profiled text can pair with equal characters of a counted one (the size of the
 * intersection of their character multisets): an upper bound of Jaro's matching characters.
 */
export function sharedLetters(profile: LetterProfile, counts: Uint8Array, at: number): number {
  let shared = 0
  for (let k = 0; k < profile.bins.length; k += 1) {
    const theirs = counts[at + (profile.bins[k] as number)] as number
    const ours = profile.counts[k] as number
    shared += ours < theirs ? ours : theirs
  }
  return shared
}
