import { foldText } from './fold-text'
import type { PreparedName } from './prepare-name'
import { soundex } from './soundex'

// One romanised Korean syllable, as the three systems lists use write it (Revised Romanization, McCune-Reischauer
// with its breves folded or written as apostrophes, and the usual spellings such as Lee, Park, Choi, Yoon, Shin):
// an onset, a vowel (with its y or w glide), and a final consonant that does not begin the next syllable.
const SYLLABLES =
  /^(?:(?:tch|ch|jj|kk|tt|pp|ss|sh|rh|[gkndtrlmbpsjh])?[yw]?(?:eo|eu|ae|oe|oi|ui|oo|ee|ou|ai|[aeiou])(?:ng|[nmklpt](?![aeiouwy]))?)+$/

// Family names whose usual spellings the rules below do not bring together with the others.
const SPELLINGS: Record<string, string> = {
  park: 'pak',
  choi: 'choe',
  oh: 'o',
  ahn: 'an',
  roh: 'no',
  noh: 'no',
}

// The family names lists most often carry (DPRK and ROK), in several spellings each; compared by `syllableKey`.
const FAMILY_NAMES = new Set(
  (
    'kim lee yi rhee ri li rim lim im park pak bak paek baek choi choe jung jeong chung jong chong kang gang ' +
    'cho jo chu ju joo yun yoon sin shin song han jang chang hwang an ahn ryu yu hong jon jeon chon ko go ' +
    'mun moon so seo yang pae bae nam sim shim hyon hyun kwon o oh min son ra na kil gil ku koo yo yeo yon ' +
    'yeon tong cha ha ham kye pyon byun sung roh noh wang won chae'
  )
    .split(' ')
    .map((name) => syllableKey(name)),
)

/**
 * One key for the ways a romanised Korean word is spelt: "Jong", "Jeong", "Chung" and "Jung" are JUNG; "Un",
 * "Eun" and "U'n" UN; "Kim" and "Gim" KIM; "Lee", "Yi", "Rhee" and "Ri" I; "Pyongyang" and "P'yŏngyang"
 * PYUNGYANG. The vowels written o/eo/ŏ and u/eu/ŭ/oo are one; so are the plain, aspirated and tense onsets
 * (g/k/kk, d/t/tt, b/p/pp, j/ch/jj, s/sh/ss) and l/r, and an initial r or l (North Korea writes it, the South
 * drops it). A key joins spellings that are one name far more often than it joins two names.
 */
export function syllableKey(word: string): string {
  const lower = word.toLowerCase()
  return (SPELLINGS[lower] ?? lower)
    .replace(/ou/g, 'o')
    .replace(/eo/g, 'o')
    .replace(/eu/g, 'u')
    .replace(/oo/g, 'u')
    .replace(/ee|yi/g, 'i')
    .replace(/o[ei]/g, 'we')
    .replace(/ae|ai/g, 'e')
    .replace(/o/g, 'u')
    .replace(/ng/g, '#')
    .replace(/tch|ch|jj/g, 'j')
    .replace(/sh|ss/g, 's')
    .replace(/kk|g/g, 'k')
    .replace(/tt|d/g, 't')
    .replace(/pp|bb|b/g, 'p')
    .replace(/rh|l/g, 'r')
    .replace(/^r(?=.)/, '')
    .replace(/#/g, 'ng')
    .toUpperCase()
}

/** Whether a folded, lower-case word reads as romanised Korean syllables (or a family name spelt as above). */
const korean = (word: string) => word.length <= 12 && (word in SPELLINGS || SYLLABLES.test(word))

// The capital as lists spell it: Pyongyang, Pyeongyang, P'yŏngyang, Pyong Yang (folded, apostrophes kept).
const PYONGYANG = /(^|[^\p{L}])p['’‘]?y(?:e?o|ŏ)['’‘]?ng[\s-]?yang(?![\p{L}])/giu

/**
 * The Korean form of a Latin name, when it has one: a person's name (`koreanPerson`), else a name holding the
 * capital in any spelling, spelt "Pyongyang" and prepared by `prepare` (the query's or the listed side's).
 */
export function koreanName(name: string, prepare: (name: string) => PreparedName): PreparedName | undefined {
  const person = koreanPerson(name)
  if (person) return person
  const folded = foldText(name)
  PYONGYANG.lastIndex = 0
  if (!PYONGYANG.test(folded)) return undefined
  return prepare(folded.replace(PYONGYANG, '$1pyongyang'))
}

/**
 * A Latin name that reads as a Korean person's name, as its family name's key and its given name's syllables
 * joined into one key: "KIM Jong Un", "Gim Jeong-eun", "Jong-un Kim" and "KIM, Jong Un" are all KIM JUNGUN.
 * Undefined unless it has two to four words, each romanised Korean syllables, the first or last a usual family
 * name (the last when the first is hyphenated, a given name: "Chang-Su Han"). Apostrophes (McCune-Reischauer's
 * breves and aspiration) are dropped; hyphens split syllables.
 */
export function koreanPerson(name: string): PreparedName | undefined {
  const tokens = foldText(name)
    .replace(/['’‘`ʼ.]/g, '')
    .split(/[\s,]+/)
    .filter(Boolean)
  const words = tokens.flatMap((token) => token.split('-').filter(Boolean))
  if (words.length < 2 || words.length > 4 || !words.every(korean)) return undefined
  const keys = words.map(syllableKey)
  const first = FAMILY_NAMES.has(keys[0] as string) && !(tokens[0] as string).includes('-')
  const family = first ? 0 : FAMILY_NAMES.has(keys.at(-1) as string) ? -1 : null
  if (family === null) return undefined
  const given = (family === 0 ? keys.slice(1) : keys.slice(0, -1)).join('')
  const parts = [...new Set([keys.at(family) as string, given])]
  return { whole: parts.join(' '), parts, codes: parts.map(soundex) }
}
