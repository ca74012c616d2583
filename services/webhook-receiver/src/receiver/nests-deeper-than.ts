const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACE = 0x7b
const OPEN_BRACKET = 0x5b
const CLOSE_BRACE = 0x7d
const CLOSE_BRACKET = 0x5d

/**
 * Whether the objects and arrays of a JSON text nest deeper than `max`, read from its bytes before any parsing
 * (strings skipped; UTF-8 continuation bytes never equal these ASCII bytes). A parser, a schema validator or a
 * serializer recursing 5000 levels deep would overflow the stack; this never recurses.
 *
 * @example nestsDeeperThan(Buffer.from('{"a":[1,{"b":2}]}'), 2) // true: 3 levels
 */
export function nestsDeeperThan(text: Uint8Array, max: number): boolean {
  // Nesting never exceeds the number of `{` and `[` bytes (those inside strings only add to it): counted by
  // Buffer's native search, a few calls for a spec event (a tenth of the walk's time on one); the walk only
  // for a text with more of them than `max`.
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text.buffer, text.byteOffset, text.byteLength)
  const openings = occurrences(bytes, OPEN_BRACE, max)
  if (openings + occurrences(bytes, OPEN_BRACKET, max - openings) <= max) return false
  return deepest(bytes, max) > max
}

/** How many times `byte` occurs in `bytes`, counted up to `max + 1` at most. */
function occurrences(bytes: Buffer, byte: number, max: number): number {
  let count = 0
  for (let at = bytes.indexOf(byte); at !== -1 && count <= max; at = bytes.indexOf(byte, at + 1)) count += 1
  return count
}

/** The deepest nesting of `text`, walked byte by byte; stops past `max` (the answer is then `max + 1`). */
function deepest(text: Uint8Array, max: number): number {
  let depth = 0
  let deepestSoFar = 0
  let inString = false
  for (let i = 0; i < text.length; i += 1) {
    const byte = text[i] as number
    if (inString) {
      if (byte === BACKSLASH) i += 1
      else if (byte === QUOTE) inString = false
    } else if (byte === QUOTE) inString = true
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      depth += 1
      if (depth > deepestSoFar) {
        deepestSoFar = depth
        if (deepestSoFar > max) return deepestSoFar
      }
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) depth -= 1
  }
  return deepestSoFar
}
