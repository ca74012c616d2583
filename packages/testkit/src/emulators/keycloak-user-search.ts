import type { Request, Response } from 'express'
import type { KeycloakRealmState } from './keycloak-realm-state'
import { userRepresentation } from './keycloak-user-representation'

/**
 * `GET /users`: `exact` for username/email/firstName/lastName, `q=name:value` attribute search compared
 * lower-cased (JpaUserProvider.searchForUserStream), `search`, `first`/`max` (default 100), and
 * `briefRepresentation` (no attributes).
 */
export function searchUsers(state: KeycloakRealmState, req: Request, res: Response): void {
  const query = req.query as Record<string, string | undefined>
  const exact = query.exact === 'true'
  const same = (stored: string | undefined, wanted: string) =>
    exact
      ? stored?.toLowerCase() === wanted.toLowerCase()
      : Boolean(stored?.toLowerCase().includes(wanted.toLowerCase()))
  const attributeTerms = (query.q ?? '')
    .split(' ')
    .filter(Boolean)
    .map((term) => [term.slice(0, term.indexOf(':')), term.slice(term.indexOf(':') + 1)] as const)
  const search = query.search?.replace(/^\*|\*$/g, '').toLowerCase()
  const found = [...state.users.values()].filter(
    (u) =>
      (query.username === undefined || same(u.username, query.username)) &&
      (query.email === undefined || same(u.email, query.email)) &&
      (query.firstName === undefined || same(u.firstName, query.firstName)) &&
      (query.lastName === undefined || same(u.lastName, query.lastName)) &&
      attributeTerms.every(([name, value]) =>
        (u.attributes[name] ?? []).some((stored) => stored.toLowerCase() === value.toLowerCase()),
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
