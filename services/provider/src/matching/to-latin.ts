import anyAscii from 'any-ascii'

/** Scripts written without (most) vowels: their Latin forms are compared as consonant skeletons. */
export const ABJAD_SCRIPTS: ReadonlySet<string> = new Set(['Arab', 'Hebr'])

/** Scripts whose syllables `any-ascii` writes capitalised one by one ("GimJeongEun", "XiJinPing"). */
const SYLLABIC = new Set(['Hang', 'Hani'])

// What lists write for Korean syllables that the Revised Romanization spells otherwise (McCune-Reischauer as
// North Korea's names are listed: KIM Jong Un, RI Yong Ho, PAK, CHOE).
const KOREAN_USUAL: Record<string, string> = {
  gim: 'kim',
  i: 'ri',
  ri: 'ri',
  bag: 'pak',
  bak: 'pak',
  jeong: 'jong',
}

const syllables = (word: string) => word.match(/[A-Z][a-z]*|[a-z]+/g) ?? [word]

/** One name as lists usually write it in Latin: the family name, then the given name's syllables joined. */
function familyThenGiven(word: string, spell: (syllable: string) => string): string[] {
  const [family, ...given] = syllables(word).map((s) => spell(s.toLowerCase()))
  if (given.length === 0) return [family ?? word]
  return [`${family} ${given.join('')}`, `${family} ${given.join(' ')}`]
}

const mccuneReischauer = (syllable: string) =>
  KOREAN_USUAL[syllable] ?? syllable.replace(/eo/g, 'o').replace(/eu/g, 'u')

/** Every Latin spelling of a Han or Hangul text's words: each name with and without its syllables spaced. */
function syllabicSpellings(latin: string, script: string): string[] {
  const words = latin.split(/\s+/).filter(Boolean)
  const spellers = script === 'Hang' ? [mccuneReischauer, (s: string) => s] : [(s: string) => s]
  const spellings = new Set<string>()
  for (const spell of spellers) {
    const each = words.map((word) => familyThenGiven(word, spell))
    spellings.add(each.map((forms) => forms[0]).join(' '))
    spellings.add(each.map((forms) => forms[forms.length - 1]).join(' '))
  }
  return [...spellings]
}

// Hebrew vav and yod are vowels as often as consonants: written as w and y, the skeleton drops them. Bet, kaf
// and pe begin a word hard (b, k, p: Binyamin, Kahane, Peres), any-ascii writes them soft (v, kh, f).
const HEBREW_LETTERS: Record<string, string> = { ו: 'w', י: 'y', ב: 'b', כ: 'k', פ: 'p' }
const hebrewLetters = (name: string) =>
  name.replace(/[וי]|(?<![\p{L}])[בכפ]/gu, (letter) => HEBREW_LETTERS[letter] ?? letter)

// Arabic names as Latin lists write them: the article al- of a word is often dropped or split off ("AL-TIKRITI",
// "EL SAYED", "MAHDI"), Allah joins the word before it ("ABDALLAH", "HIDAYATULLAH") and Abd often the word after
// it ("ABDURRAHMAN", "ABDELKADER"). Two spellings: Abd apart, and Abd joined.
const ARTICLE = /(^|\s)[اٱ]ل(?!له(\s|$))(?=\p{L}{2})/gu
const ALLAH = /\s+(ال|[اٱ]?ل)له(?=\s|$)/gu
const ABD = /(^|\s)عبد\s+/gu

function arabicSpellings(name: string): string[] {
  const apart = name.replace(ALLAH, 'الله').replace(/\s+/g, ' ').replace(ARTICLE, '$1')
  const joined = name.replace(ABD, '$1عبد').replace(ALLAH, 'الله').replace(ARTICLE, '$1')
  return [...new Set([apart, joined])]
}

/**
 * The Latin spellings of a name written in `script` (an ISO 15924 code, `detectScript`), empty for Latin and
 * for what has no transliteration. `any-ascii` (ISC, kept by its author since 2020, one table per Unicode
 * block generated from Unidecode and the scripts' national standards) gives the letters: BGN/PCGN-like Cyrillic
 * ("Щербаков" → "Shcherbakov"), unvowelled Arabic and Persian ("صدام حسين" → "sdm hsyn", compared as consonant
 * skeletons), Greek, Georgian, Armenian, Hebrew, pinyin for Han and Revised Romanization for Hangul, which
 * become the name as lists write it: "习近平" → "Xi Jinping" and "Xi Jin Ping"; "김정은" → "Kim Jongun",
 * "Kim Jong un" and the Revised "Gim Jeongeun", "Gim Jeong eun".
 */
export function toLatin(name: string, script: string): string[] {
  if (script === 'Latn' || script === 'Zyyy') return []
  let text = script === 'Hebr' ? hebrewLetters(name) : name
  if (script === 'Grek') text = text.replace(/ου/gi, (pair) => (pair[0] === 'Ο' ? 'Ou' : 'ou'))
  if (script === 'Arab') return arabicSpellings(text).map((spelling) => anyAscii(spelling).trim())
  const latin = anyAscii(text).trim()
  if (!/[A-Za-z]/.test(latin) || latin === name) return []
  return SYLLABIC.has(script) ? syllabicSpellings(latin, script) : [latin]
}
