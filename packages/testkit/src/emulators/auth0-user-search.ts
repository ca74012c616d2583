import type { Request, Response } from 'express'
import { problem } from './auth0-problem'
import type { Auth0TenantState, EmulatedAuth0User, SearchableUser } from './auth0-tenant-state'
import { parseUserQuery, type Term } from './lucene-subset'

const matches = (user: SearchableUser, { field, value }: Term) => {
  if (field === 'email') return user.email === value.toLowerCase()
  if (field === 'user_id') return user.user_id === value
  if (field === 'identities.connection') return user.connection === value
  if (field.startsWith('app_metadata.'))
    return String(user.app_metadata[field.slice('app_metadata.'.length)] ?? '\u0000') === value
  return false
}
const badQuery = (res: Response, message: string) =>
  problem(res, 400, 'Bad Request', `Query validation error: ${message}`, 'invalid_query_string')

/**
 * `GET /users`: search engine v3 over the eventually consistent index (what each user looked like `searchLagMs`
 * ago), `email`, `user_id`, `identities.connection` and `app_metadata.*` terms joined by `OR`/`AND`;
 * `page`/`per_page` (50 by default, 100 at most), `include_totals`, and never beyond the first 1000 results.
 */
export function searchUsers(state: Auth0TenantState, req: Request, res: Response): void {
  const {
    q = '',
    search_engine: engine,
    include_totals: totals,
  } = req.query as Record<string, string | undefined>
  if (engine !== 'v3' && q.includes('app_metadata'))
    return badQuery(
      res,
      'app_metadata fields are not searchable with the legacy search engine; use search_engine=v3.',
    )
  const page = Number(req.query.page ?? 0)
  const perPage = Number(req.query.per_page ?? 50)
  if (!Number.isInteger(page) || page < 0 || !Number.isInteger(perPage) || perPage < 0 || perPage > 100)
    return badQuery(res, "'Invalid paging' on property page / per_page.")
  if ((page + 1) * perPage > 1000) return badQuery(res, 'You can only page through the first 1000 records.')
  const clauses = q ? parseUserQuery(q) : [[]]
  if (!clauses) return badQuery(res, `'Invalid query' on property q (${q}).`)
  const found = [...state.users.keys()]
    .map(state.searchable)
    .filter((user): user is SearchableUser => user !== undefined)
    .filter((user) => clauses.some((clause) => clause.every((term) => matches(user, term))))
    .slice(0, 1000)
  const onPage = found
    .slice(page * perPage, (page + 1) * perPage)
    .map((found) => state.users.get(found.user_id))
    .filter((user): user is EmulatedAuth0User => user !== undefined)
    .map(state.view)
  res.json(
    totals === 'true'
      ? { start: page * perPage, limit: perPage, length: onPage.length, users: onPage, total: found.length }
      : onPage,
  )
}
