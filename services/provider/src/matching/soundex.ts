// American Soundex digit classes (the US National Archives' rules): vowels, H, W and Y carry no digit.
const DIGIT: Record<string, string> = {
  B: '1',
  F: '1',
  P: '1',
  V: '1',
  C: '2',
  G: '2',
  J: '2',
  K: '2',
  Q: '2',
  S: '2',
  X: '2',
  Z: '2',
  D: '3',
  T: '3',
  L: '4',
  M: '5',
  N: '5',
  R: '6',
}

/**
 * American Soundex of a folded, upper-case name part: its first character and the digits of the next
 * consonant sounds, padded to four ("PUTIN" → "P350", "TYMCZAK" → "T522"). Adjacent letters of one class give
 * one digit, also across H and W but not across a vowel ("ASHCRAFT" → "A261"). Characters outside A-Z (digits,
 * other alphabets) count as vowels, so they separate but never code.
 *
 * @example soundex('ROBERT') === soundex('RUPERT') // 'R163'
 */
export function soundex(part: string): string {
  if (part.length === 0) return ''
  let code = part.charAt(0)
  let last = DIGIT[code] ?? ''
  for (let i = 1; i < part.length && code.length < 4; i += 1) {
    const letter = part.charAt(i)
    const digit = DIGIT[letter] ?? ''
    if (digit !== '' && digit !== last) code += digit
    if (letter !== 'H' && letter !== 'W') last = digit
  }
  return code.padEnd(4, '0')
}

/** The Soundex class of a letter: its digit, or '' for vowels, H, W, Y and anything outside A-Z. */
export function soundClass(letter: string): string {
  return DIGIT[letter] ?? ''
}
