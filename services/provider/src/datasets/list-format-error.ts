/** Where in a file a problem is: a line (and column), or a byte offset. */
export type FilePosition = { line: number; column?: number } | { byte: number }

const shown = (at: FilePosition) =>
  'byte' in at
    ? `byte ${at.byte}`
    : at.column === undefined
      ? `line ${at.line}`
      : `line ${at.line}:${at.column}`

/**
 * A list file that cannot be read as its format: the message names the file and the position
 * (`sdn.xml line 12:7: unclosed tag: NAME`), so an operator can open it there. A loader throws it instead of
 * returning what it read so far: a list is indexed whole or not at all.
 */
export class ListFormatError extends Error {
  override readonly name = 'ListFormatError'

  constructor(
    readonly file: string,
    readonly position: FilePosition | undefined,
    readonly problem: string,
  ) {
    super(position ? `${file} ${shown(position)}: ${problem}` : `${file}: ${problem}`)
  }
}
