/** The widest table pf-sim prints: a terminal's 100 columns. */
export const TABLE_WIDTH = 100

type Row = Record<string, string>

/** One cell: arrays joined, objects left out (the explanation is summarised instead), at most one line. */
const cell = (value: unknown): string | undefined => {
  if (value === null || value === undefined) return ''
  if (Array.isArray(value))
    return value.every((item) => typeof item !== 'object') ? value.join(',') : undefined
  if (typeof value === 'object') return undefined
  return String(value).replace(/\s+/g, ' ')
}

/**
 * A result as a row: a screening result leads with score, name and the name it matched, with its explanation
 * summarised (the matched name, the score, the list); any other result keeps its plain fields.
 */
function rowOf(result: Record<string, unknown>): Row {
  const row: Row = {}
  const screening = typeof result.score === 'number'
  const order = screening
    ? ['score', 'name', 'matchedName', 'list', 'type', 'countries', 'programs', 'id']
    : []
  for (const key of [...order, ...Object.keys(result)]) {
    if (key in row || key === 'source' || key === 'explanation' || key === 'lists') continue
    const value = cell(result[key])
    if (value !== undefined) row[key] = value
  }
  return row
}

const clip = (text: string, width: number) => (text.length <= width ? text : `${text.slice(0, width - 1)}…`)

/**
 * Results as a table that fits `width` columns: the widest column gives way first, down to 12 characters, then
 * the rightmost columns go. Headed by how many are shown of how many the answer has.
 */
export function formatResultsTable(
  results: unknown[],
  { total, show, width = TABLE_WIDTH }: { total: number; show: number; width?: number },
): string {
  const rows = results.slice(0, show).map((r) => rowOf((r ?? {}) as Record<string, unknown>))
  const heading = `${rows.length} of ${total} shown`
  if (rows.length === 0) return heading
  // Columns empty in every row shown say nothing.
  let columns = [...new Set(rows.flatMap((row) => Object.keys(row)))].filter((c) =>
    rows.some((row) => row[c]),
  )
  const widths = new Map(
    columns.map((c) => [c, Math.max(c.length, ...rows.map((row) => (row[c] ?? '').length))]),
  )
  const used = () => columns.reduce((sum, c) => sum + (widths.get(c) as number) + 2, -2)
  while (used() > width) {
    const widest = columns.reduce((a, b) => ((widths.get(a) as number) >= (widths.get(b) as number) ? a : b))
    // One character at a time, so the widest columns end up even rather than one of them crushed.
    if ((widths.get(widest) as number) > 12) widths.set(widest, (widths.get(widest) as number) - 1)
    else columns = columns.slice(0, -1)
  }
  const line = (cells: (c: string) => string) =>
    columns
      .map((c) => clip(cells(c), widths.get(c) as number).padEnd(widths.get(c) as number))
      .join('  ')
      .trimEnd()
  return [heading, line((c) => c), ...rows.map((row) => line((c) => row[c] ?? ''))].join('\n')
}
