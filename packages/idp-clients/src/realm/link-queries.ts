import { LINK_ATTRIBUTE } from '../marketplace-attributes'

/**
 * The `q` values of `GET /admin/realms/{realm}/users` that find the accounts whose `pfUserId` is `userId`, on
 * every Keycloak 24-26. The value is quoted, so spaces and colons stay in it. Keycloak has read `q` with two
 * parsers that disagree on backslashes (SearchQueryUtils.getFields; both are modelled in the testkit's
 * `keycloak-search-query.ts`): up to 26.0.5 (24.0.8, 25) inside quotes `\x` stands for `x`, so `\` and `"` are
 * escaped; from 26.0.6 (24.0.9) `\"` is a quote and any other backslash is kept as it is, except `\\`, which is
 * dropped. Without a backslash both read the one form; with one, each gets its own form, except that the later
 * parser cannot be given a value with `\\`, `\"` or a final `\` (keycloak/keycloak#37281): those ids are looked
 * up on such servers through their username only. The search compares case-blind: callers compare the link
 * again, exactly, on what comes back.
 *
 * @example
 * linkQueries('a "b"') // ['pfUserId:"a \"b\""']
 * linkQueries('a\\b') // ['pfUserId:"a\\\\b"', 'pfUserId:"a\\b"']
 */
export function linkQueries(userId: string): string[] {
  const term = (value: string) => `${LINK_ATTRIBUTE}:"${value}"`
  const escaped = term(userId.replace(/[\\"]/g, (c) => `\\${c}`))
  if (!userId.includes('\\') || /\\(?:[\\"]|$)/.test(userId)) return [escaped]
  return [escaped, term(userId.replace(/"/g, '\\"'))]
}
