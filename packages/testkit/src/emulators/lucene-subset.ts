/** One exact-match term of a user-search query: `field:"value"` or `field:value`. */
export interface Term {
  field: string
  value: string
}

/**
 * Parses the part of the Lucene syntax the Management API's user search is used with here: exact terms joined by
 * upper-case `OR` / `AND` (AND binds tighter), quoted values with `\"` and `\\` escapes. Returns the clauses
 * (OR of ANDs), or null for anything else (the real API answers 400 then).
 */
export function parseUserQuery(query: string): Term[][] | null {
  const terms: (Term | 'AND' | 'OR')[] = []
  let i = 0
  const skipSpaces = () => {
    while (query[i] === ' ') i += 1
  }
  while (i < query.length) {
    skipSpaces()
    if (query.startsWith('OR ', i) || query.startsWith('AND ', i)) {
      const op = query.startsWith('OR ', i) ? 'OR' : 'AND'
      terms.push(op)
      i += op.length
      continue
    }
    const colon = query.indexOf(':', i)
    if (colon === -1) return null
    const field = query.slice(i, colon)
    if (!/^[A-Za-z_][\w.]*$/.test(field)) return null
    i = colon + 1
    let value = ''
    if (query[i] === '"') {
      i += 1
      while (i < query.length && query[i] !== '"') {
        if (query[i] === '\\') i += 1
        value += query[i] ?? ''
        i += 1
      }
      if (query[i] !== '"') return null
      i += 1
    } else {
      while (i < query.length && query[i] !== ' ') value += query[i++]
      if (/[*?]/.test(value)) return null
    }
    terms.push({ field, value })
    skipSpaces()
  }
  const clauses: Term[][] = [[]]
  let expectTerm = true
  for (const term of terms) {
    if (term === 'OR' || term === 'AND') {
      if (expectTerm) return null
      if (term === 'OR') clauses.push([])
      expectTerm = true
    } else {
      if (!expectTerm) return null
      clauses.at(-1)!.push(term)
      expectTerm = false
    }
  }
  return expectTerm ? null : clauses
}
