import type { PreparedName } from './prepare-name'
import { soundex } from './soundex'

/** How many parts' skeletons `consonantSkeleton` keeps (a few MB at most). */
const SKELETONS_KEPT = 100_000
const skeletons = new Map<string, string>()

/**
 * The consonants of a folded, upper-case name part, as Arabic and Hebrew write it without vowels: doubled letters
 * once, then vowels and the half-vowels W and Y dropped, a final H after a consonant dropped (Arabic's tā'
 * marbūṭa, "FATIMAH"), apostrophes (hamza, ʿayn) gone. "MUHAMMAD" and "mhmd", "HUSSEIN" and "hsyn",
 * "AL-TIKRITI" and "ltkryty" have one skeleton each: MHMD, HSN, LTKRT.
 */
export function consonantSkeleton(part: string): string {
  // The precision rules ask for the same listed words' skeletons on every screening (a tenth of its time before
  // this cache); a query's own words may be anything, so the cache starts again once it holds SKELETONS_KEPT.
  let skeleton = skeletons.get(part)
  if (skeleton === undefined) {
    skeleton = skeletonOf(part)
    if (skeletons.size >= SKELETONS_KEPT) skeletons.clear()
    skeletons.set(part, skeleton)
  }
  return skeleton
}

function skeletonOf(part: string): string {
  // Doubled letters once before the vowels go: "SADDAM" is sdm, but "AZIZ" is zyz, ZZ.
  const single = part
    .toUpperCase()
    .replace(/(.)\1+/g, '$1')
    .replace(/[^B-DF-HJ-NP-TVXZ]/g, '')
  return single.length > 2 && !/[SKGTDZC]H$/.test(single) ? single.replace(/H$/, '') : single
}

/**
 * A prepared name compared by consonant skeletons: its parts' skeletons, each once (one letter is a part too:
 * "ALI" is L), and no whole-name form (the whole-name term is not used between skeletons).
 */
export function skeletonName(name: PreparedName): PreparedName {
  const parts = [...new Set(name.parts.map(consonantSkeleton).filter(Boolean))]
  return { whole: '', parts, codes: parts.map(soundex) }
}
