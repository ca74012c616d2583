/**
 * An exact-match term for the tenant's user search (Lucene syntax, search engine v3): the value is quoted, and
 * backslashes and quotes inside it are escaped, so a user id such as `a" OR email:"*` stays one value.
 *
 * @example
 * exactTerm('app_metadata.pfUserId', 'user_1') // 'app_metadata.pfUserId:"user_1"'
 */
export function exactTerm(field: string, value: string): string {
  return `${field}:"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`
}
