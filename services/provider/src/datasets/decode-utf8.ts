import { ListFormatError } from './list-format-error'

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false })

/** The offset of the first byte that does not start or continue a valid UTF-8 sequence. */
function firstInvalidByte(bytes: Uint8Array): number {
  let i = 0
  while (i < bytes.length) {
    const lead = bytes[i] as number
    const length = lead < 0x80 ? 1 : lead >= 0xc2 && lead < 0xe0 ? 2 : lead >= 0xe0 && lead < 0xf0 ? 3 : 4
    if (lead >= 0x80 && (lead < 0xc2 || lead > 0xf4)) return i
    try {
      decoder.decode(bytes.subarray(i, i + length))
    } catch {
      return i
    }
    i += length
  }
  return bytes.length
}

/**
 * A list file's text, from UTF-8 (a leading BOM dropped); bytes that are not UTF-8 are a `ListFormatError` at
 * their offset, never a replacement character that would make a name unmatchable.
 */
export function decodeUtf8(bytes: Uint8Array, file: string): string {
  try {
    return decoder.decode(bytes)
  } catch {
    throw new ListFormatError(file, { byte: firstInvalidByte(bytes) }, 'not UTF-8')
  }
}
