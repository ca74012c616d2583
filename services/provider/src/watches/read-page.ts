import type { Request } from 'express'

/** Most items one page holds; the default when `limit` is not given. */
export const MAX_PAGE_LIMIT = 1000
export const DEFAULT_PAGE_LIMIT = 100

/** `?limit=&after=` of a cursor-paginated list: `after` is the `nextCursor` of the page before. */
export function readPage(req: Request): { limit: number; after?: string } | { error: string } {
  const { limit: rawLimit, after } = req.query
  const limit = rawLimit === undefined ? DEFAULT_PAGE_LIMIT : Number(rawLimit)
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT)
    return { error: `limit must be an integer from 1 to ${MAX_PAGE_LIMIT}` }
  if (after !== undefined && (typeof after !== 'string' || after.length > 128))
    return { error: 'after must be the nextCursor of the page before' }
  return { limit, after }
}

/** The page's items (one more was read to know whether another page follows) and the cursor of the next. */
export function pageOf<T>(rows: readonly T[], limit: number, key: (row: T) => string) {
  const items = rows.slice(0, limit)
  const last = items[items.length - 1]
  return { items, nextCursor: rows.length > limit && last !== undefined ? key(last) : null }
}
