// Letters NFKD does not decompose into a base letter plus a mark (their capitals are lower-cased first:
// Æ Ø Ł Đ Þ Œ; İ decomposes to I plus a dot, ı is here).
const SPECIAL: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
}
const SPECIAL_PATTERN = new RegExp(`[${Object.keys(SPECIAL).join('')}]`, 'g')

/**
 * Lower-case, accent-free form of a text, the one folding of names, aliases, queries and countries:
 * "Société Générale" → "societe generale", "Straße" → "strasse", "ÆROCARIBBEAN" → "aerocaribbean",
 * "Łaurin" → "laurin", "İstanbul" → "istanbul".
 */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(SPECIAL_PATTERN, (letter) => SPECIAL[letter] ?? letter)
}

/** The folded words of a text, split on anything that is not a letter or a digit. */
export function tokenize(text: string | null | undefined): string[] {
  if (!text) return []
  return foldText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
}
