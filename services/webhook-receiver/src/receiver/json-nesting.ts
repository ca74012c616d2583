const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACE = 0x7b
const OPEN_BRACKET = 0x5b
const CLOSE_BRACE = 0x7d
const CLOSE_BRACKET = 0x5d

/**
 * How deeply the objects and arrays of a JSON text nest, read from its bytes before any parsing (strings
 * skipped; UTF-8 continuation bytes never equal these ASCII bytes). Stops counting past `max`: the answer is
 * then `max + 1`. A parser, a schema validator or a serializer recursing 5000 levels deep would overflow the
 * stack; this never recurses.
 *
 * @example jsonNesting(Buffer.from('{"a":[1,{"b":2}]}'), 32) // 3
 */
export function jsonNesting(text: Uint8Array, max: number): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i += 1) {
    const byte = text[i] as number
    if (inString) {
      if (byte === BACKSLASH) i += 1
      else if (byte === QUOTE) inString = false
    } else if (byte === QUOTE) inString = true
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      depth += 1
      if (depth > deepest) {
        deepest = depth
        if (deepest > max) return deepest
      }
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) depth -= 1
  }
  return deepest
}
