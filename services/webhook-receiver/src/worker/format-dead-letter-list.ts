import type { DeadLetter } from './dead-letters'

/** The widest line `dead-letters list` prints: a terminal of 100 columns shows each whole. */
export const LIST_WIDTH = 100

const cut = (text: string, width: number) => (text.length <= width ? text : `${text.slice(0, width - 1)}…`)

/**
 * Dead letters for a person: a header, then two lines a letter, each within `width` columns: its webhookId,
 * event, reason, attempts and time, then its jobId and why it failed (cut with `…`; `show` prints it whole).
 */
export function formatDeadLetterRows(letters: DeadLetter[], width = LIST_WIDTH): string[] {
  const rows = letters.map((letter) => [
    letter.webhookId ?? '(none)',
    letter.event || '(unknown)',
    letter.reason,
    String(letter.attempts),
    // To the second: the milliseconds say nothing to a person and cost four columns.
    letter.failedAt?.replace(/\.\d+Z$/, 'Z') ?? '',
  ])
  const header = ['webhookId', 'event', 'reason', 'attempts', 'failed at']
  const widths = header.map((title, column) =>
    Math.min(32, Math.max(title.length, ...rows.map((row) => (row[column] as string).length))),
  )
  const line = (cells: string[]) =>
    cut(
      cells
        .map((cell, column) => cut(cell, widths[column] as number).padEnd(widths[column] as number))
        .join('  ')
        .trimEnd(),
      width,
    )
  return [
    line(header),
    ...letters.flatMap((letter, index) => [
      line(rows[index] as string[]),
      cut(`  job ${letter.jobId}: ${letter.failedReason.replace(/\s+/g, ' ')}`, width),
    ]),
  ]
}

/** `dead-letters list`: where it looked, and the letters (`--json` prints every field whole). */
export function formatDeadLetterList(letters: DeadLetter[], where: string, width = LIST_WIDTH): string {
  if (letters.length === 0) return `no dead letters at ${where}`
  const count = `${letters.length} dead letter${letters.length === 1 ? '' : 's'}`
  return [`${count} at ${where}`, ...formatDeadLetterRows(letters, width)].join('\n')
}
