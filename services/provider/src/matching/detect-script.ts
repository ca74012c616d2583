// The scripts lists write names in, as ISO 15924 codes; the first one a letter belongs to wins its vote.
const SCRIPTS: [code: string, letters: RegExp][] = [
  ['Latn', /\p{Script=Latin}/u],
  ['Cyrl', /\p{Script=Cyrillic}/u],
  ['Arab', /\p{Script=Arabic}/u],
  ['Hani', /\p{Script=Han}/u],
  ['Hang', /\p{Script=Hangul}/u],
  ['Grek', /\p{Script=Greek}/u],
  ['Hebr', /\p{Script=Hebrew}/u],
  ['Geor', /\p{Script=Georgian}/u],
  ['Armn', /\p{Script=Armenian}/u],
  ['Jpan', /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Deva', /\p{Script=Devanagari}/u],
]

/**
 * The ISO 15924 code of the script most of a name's letters are written in (`Latn`, `Cyrl`, `Arab`, `Hani`,
 * `Hang`, `Grek`, `Hebr`, `Geor`, `Armn`, `Jpan`, `Thai`, `Deva`), `Zzzz` for another script, `Zyyy` when it
 * has no letter. Names carry it so that transliteration can tell which rules apply.
 *
 * @example
 * detectScript('Владимир ПЛОТНИКОВ') // 'Cyrl'
 */
export function detectScript(name: string): string {
  const votes = new Map<string, number>()
  for (const char of name) {
    const code = letterScript(char)
    if (code) votes.set(code, (votes.get(code) ?? 0) + 1)
  }
  let best = 'Zyyy'
  let most = 0
  for (const [code, count] of votes) if (count > most) [best, most] = [code, count]
  return best
}

/** The script of one character when it is a letter, else undefined. */
function letterScript(char: string): string | undefined {
  const unit = char.charCodeAt(0)
  // ASCII without a regular expression (most names, and a million of them at a build): its letters are Latin.
  if (unit < 0x80) return (unit | 0x20) >= 0x61 && (unit | 0x20) <= 0x7a ? 'Latn' : undefined
  if (!/\p{L}/u.test(char)) return undefined
  return SCRIPTS.find(([, letters]) => letters.test(char))?.[0] ?? 'Zzzz'
}
