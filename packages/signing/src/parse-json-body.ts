import { InvalidJsonError } from './errors'

const UTF8_BOM = '\uFEFF'

/**
 * The verified bytes as JSON: decoded as UTF-8, a leading BOM skipped (it is part of the signed bytes, never of
 * the JSON text). Returns the text parsed and the value; throws `InvalidJsonError` when it is not JSON.
 *
 * @example
 * const { text, body } = parseJsonBody(verified.raw)
 */
export function parseJsonBody(raw: Uint8Array): { text: string; body: unknown } {
  let text = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8')
  if (text.startsWith(UTF8_BOM)) text = text.slice(1)
  try {
    return { text, body: JSON.parse(text) }
  } catch (cause) {
    throw new InvalidJsonError('request body is not valid JSON', { cause })
  }
}
