import type { Request, Response } from 'express'
import type { KeycloakRealmState } from './keycloak-realm-state'
import {
  parseSearchQuery,
  searchQueryParser,
  SearchQueryFault,
  versionAtLeast,
} from './keycloak-search-query'
import { userRepresentation } from './keycloak-user-representation'

/**
 * SQL `LIKE` as PostgreSQL reads it (`%` any run, `_` one character, `\` escapes the next): JpaUserProvider
 * puts the value between `%` without escaping it.
 */
function likeMatches(text: string, pattern: string): boolean {
  const literal = (c: string) => c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
  let source = ''
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i]!
    if (c === '\\' && i + 1 < pattern.length) source += literal(pattern[++i]!)
    else source += c === '%' ? '[^]*' : c === '_' ? '[^]' : literal(c)
  }
  return new RegExp(`^${source}$`, 'u').test(text)
}

/**
 * Whether `q`'s attributes compare exactly (JpaUserProvider.predicates, `UserModel.EXACT`): always before
 * 26.0.7; from 26.0.7 `exact=false` makes them substring searches (keycloak/keycloak#34133), and 26.0.7 alone
 * did so by default, `exact` absent (the regression keycloak/keycloak#35822, reverted in 26.0.8).
 */
function attributesExact(serverVersion: string, exact: string | undefined): boolean {
  if (!versionAtLeast(serverVersion, [26, 0, 7])) return true
  if (exact === undefined) return versionAtLeast(serverVersion, [26, 0, 8])
  return exact !== 'false'
}

/**
 * `GET /users`: `exact` for username/email/firstName/lastName; `q` attribute search (`parseSearchQuery`: the
 * parser of the server's version) compared lower-cased, `lower(value) = :value` (JpaUserProvider; past 255
 * characters a hash of the lower-cased value, the same answer), or `LIKE %value%` where not exact (see
 * `attributesExact`); a `q` whose parser throws is a 500. Then `search`, `first`/`max` (default 100), and
 * `briefRepresentation` (no attributes). Only custom attributes are modelled in `q` (Keycloak would read
 * `email:…` there as the email).
 */
export function searchUsers(state: KeycloakRealmState, req: Request, res: Response): void {
  const query = req.query as Record<string, string | undefined>
  const exact = query.exact === 'true'
  const same = (stored: string | undefined, wanted: string) =>
    exact
      ? stored?.toLowerCase() === wanted.toLowerCase()
      : Boolean(stored?.toLowerCase().includes(wanted.toLowerCase()))
  let terms: Map<string, string>
  try {
    terms = parseSearchQuery(query.q ?? '', searchQueryParser(state.serverVersion))
  } catch (error) {
    if (!(error instanceof SearchQueryFault)) throw error
    return void res.status(500).json({ error: 'unknown_error' })
  }
  const exactTerms = attributesExact(state.serverVersion, query.exact)
  const matches = (stored: string, wanted: string) =>
    exactTerms
      ? stored.toLowerCase() === wanted.toLowerCase()
      : likeMatches(stored.toLowerCase(), `%${wanted.toLowerCase()}%`)
  const search = query.search?.replace(/^\*|\*$/g, '').toLowerCase()
  const found = [...state.users.values()].filter(
    (u) =>
      (query.username === undefined || same(u.username, query.username)) &&
      (query.email === undefined || same(u.email, query.email)) &&
      (query.firstName === undefined || same(u.firstName, query.firstName)) &&
      (query.lastName === undefined || same(u.lastName, query.lastName)) &&
      [...terms].every(([name, value]) =>
        (u.attributes[name] ?? []).some((stored) => matches(stored, value)),
      ) &&
      (search === undefined ||
        [u.username, u.email, u.firstName, u.lastName].some((v) => v?.toLowerCase().includes(search))),
  )
  const first = Math.max(0, Number(query.first ?? 0) || 0)
  const max = Number(query.max ?? 100)
  res.json(
    found
      .slice(first, first + (max >= 0 ? max : 100))
      .map((u) => userRepresentation(u, query.briefRepresentation === 'true')),
  )
}
