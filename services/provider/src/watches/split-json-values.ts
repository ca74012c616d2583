/** One top-level value of a JSON array or one line of JSON Lines: its position and text (or why there is none). */
export interface JsonPiece {
  index: number
  text?: string
  error?: string
}

/** Why a body cannot be read as a whole (not one value of it): answered 400 with what was committed. */
export class BodyShapeError extends Error {}

/**
 * Splits a JSON array or JSON Lines body, read chunk by chunk, into its values' texts without parsing them:
 * memory holds one value at a time, and a value longer than `maxValueChars` is skipped (its piece says so).
 * A JSON array's values are found by depth outside strings; its items are parsed by the caller, so a bad item
 * is one rejected index, while a body that is no array (or has text after it) throws `BodyShapeError`.
 */
export async function* splitJsonValues(
  chunks: AsyncIterable<string>,
  { format, maxValueChars }: { format: 'array' | 'lines'; maxValueChars: number },
): AsyncGenerator<JsonPiece> {
  const splitter = format === 'lines' ? new LineSplitter(maxValueChars) : new ArraySplitter(maxValueChars)
  for await (const chunk of chunks) yield* splitter.push(chunk)
  yield* splitter.end()
}

class LineSplitter {
  private text = ''
  private tooLong = false
  private index = 0
  constructor(private readonly max: number) {}

  *push(chunk: string): Generator<JsonPiece> {
    let start = 0
    for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', start)) {
      yield* this.line(chunk.slice(start, nl))
      start = nl + 1
    }
    this.add(chunk.slice(start))
  }

  end(): Iterable<JsonPiece> {
    return this.line('')
  }

  private add(part: string) {
    if (this.tooLong) return
    if (this.text.length + part.length > this.max) {
      this.tooLong = true
      this.text = ''
    } else this.text += part
  }

  private *line(last: string): Generator<JsonPiece> {
    this.add(last)
    const { tooLong, text } = this
    this.text = ''
    this.tooLong = false
    if (tooLong) yield { index: this.index++, error: `line longer than ${this.max} characters` }
    else if (text.trim() !== '') yield { index: this.index++, text }
  }
}

class ArraySplitter {
  private state: 'before' | 'items' | 'after' = 'before'
  private depth = 0
  private inString = false
  private escaped = false
  private text = ''
  private tooLong = false
  private index = 0
  constructor(private readonly max: number) {}

  *push(chunk: string): Generator<JsonPiece> {
    let start = 0
    for (let i = 0; i < chunk.length; i += 1) {
      const c = chunk[i] as string
      if (this.state !== 'items') {
        if (/\s/.test(c)) continue
        if (this.state === 'before' && c === '[') {
          this.state = 'items'
          start = i + 1
          continue
        }
        throw new BodyShapeError(
          this.state === 'before' ? 'body must be a JSON array of subjects' : 'text after the JSON array',
        )
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false
        else if (c === '\\') this.escaped = true
        else if (c === '"') this.inString = false
        continue
      }
      if (c === '"') this.inString = true
      else if (c === '{' || c === '[') this.depth += 1
      else if ((c === '}' || c === ']') && this.depth > 0) this.depth -= 1
      else if ((c === ',' || c === ']') && this.depth === 0) {
        this.add(chunk.slice(start, i))
        const piece = this.take(c === ']')
        if (piece) yield piece
        if (c === ']') this.state = 'after'
        start = i + 1
      }
    }
    if (this.state === 'items') this.add(chunk.slice(start))
  }

  end(): JsonPiece[] {
    if (this.state !== 'after') throw new BodyShapeError('the JSON array ends before its closing bracket')
    return []
  }

  private add(part: string) {
    if (this.tooLong) return
    if (this.text.length + part.length > this.max) {
      this.tooLong = true
      this.text = ''
    } else this.text += part
  }

  /** The value ended by a comma or the closing bracket; `[]` and a trailing `]` after a value hold none. */
  private take(closing: boolean): JsonPiece | undefined {
    const { tooLong, text } = this
    this.text = ''
    this.tooLong = false
    if (tooLong) return { index: this.index++, error: `subject longer than ${this.max} characters` }
    if (text.trim() === '') {
      if (closing && this.index === 0) return undefined
      return { index: this.index++, error: 'empty array item' }
    }
    return { index: this.index++, text }
  }
}
