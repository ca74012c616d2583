import type { CopyCounts, Rejection } from './copy-company-files'

/** `--max-rejected`'s default: a hundredth of the input lines may be inside refused records. */
export const DEFAULT_MAX_REJECTED = 0.01

/** An import refused by `wholeImportProblem`: nothing was changed. */
export class ImportRefusedError extends Error {
  override readonly name = 'ImportRefusedError'
}

const where = ({ file, line, lines, reason }: Rejection) =>
  `${file}:${line}: ${reason}${lines > 1 ? ` (${lines} lines)` : ''}`

/**
 * Why a copy must not replace its source's rows, or undefined: an import replaces a source only with a whole
 * file. Refused when it copied no company, or when the input lines inside refused records are more than
 * `maxRejected` of all input lines. Lines, not records: a stray quote that swallows the rest of a file into
 * one refused record, or a file with the wrong delimiter, is most of its lines.
 */
export function wholeImportProblem(counts: CopyCounts, maxRejected: number): string | undefined {
  const first = counts.firstRejection ? `; the first: ${where(counts.firstRejection)}` : ''
  if (maxRejected === 0 && counts.rejected > 0) return `a refused record, and --max-rejected is 0${first}`
  if (counts.records === 0) return `no company was read from ${counts.lines} input lines${first}`
  if (counts.rejectedLines <= maxRejected * counts.lines) return undefined
  const share = ((100 * counts.rejectedLines) / counts.lines).toFixed(2)
  return (
    `${counts.rejectedLines} of ${counts.lines} input lines (${share} %) are in refused records, ` +
    `more than --max-rejected ${maxRejected}${first}`
  )
}
