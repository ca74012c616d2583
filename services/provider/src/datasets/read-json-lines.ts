import { ListFormatError } from './list-format-error'

const decoder = new TextDecoder('utf-8', { fatal: true })

/** One line of a JSON Lines file, parsed, with its number (from 1). */
export interface JsonLine {
  value: unknown
  line: number
}

function parseLine(bytes: Buffer, line: number, offset: number, file: string): JsonLine | undefined {
  let text: string
  try {
    text = decoder.decode(bytes)
  } catch {
    throw new ListFormatError(file, { byte: offset }, `line ${line} is not UTF-8`)
  }
  text = text.replace(/^\uFEFF/, '').trim()
  if (!text) return undefined
  try {
    return { value: JSON.parse(text), line }
  } catch (error) {
    throw new ListFormatError(file, { line }, `not JSON (${(error as Error).message})`)
  }
}

/**
 * The lines of a JSON Lines file read from a stream of bytes, each parsed as it completes (the file is never
 * held whole): blank lines skipped; a line that is not UTF-8 or not JSON is a `ListFormatError` naming it.
 */
export async function* readJsonLines(
  chunks: AsyncIterable<Uint8Array>,
  file: string,
): AsyncGenerator<JsonLine> {
  let pending: Buffer[] = []
  let line = 1
  let offset = 0
  let lineStart = 0
  for await (const chunk of chunks) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    let from = 0
    for (let end = bytes.indexOf(0x0a); end >= 0; end = bytes.indexOf(0x0a, from)) {
      pending.push(bytes.subarray(from, end))
      const parsed = parseLine(Buffer.concat(pending), line, lineStart, file)
      if (parsed) yield parsed
      pending = []
      line += 1
      lineStart = offset + end + 1
      from = end + 1
    }
    if (from < bytes.length) pending.push(bytes.subarray(from))
    offset += bytes.length
  }
  const last = parseLine(Buffer.concat(pending), line, lineStart, file)
  if (last) yield last
}
