import type { PreparedName } from './prepare-name'
import { soundex } from './soundex'

/**
 * The consonants of a folded, upper-case name part, as Arabic and Hebrew write it without vowels: doubled letters
 * once, then vowels and the half-vowels W and Y dropped, a final H after a consonant dropped (Arabic's tā'
 * marbūṭa, "FATIMAH"), apostrophes (hamza, ʿayn) gone. "MUHAMMAD" and "mhmd", "HUSSEIN" and "hsyn",
 * "AL-TIKRITI" and "ltkryty" have one skeleton each: MHMD, HSN, LTKRT.
 */
export function consonantSkeleton(part: string): string {
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
