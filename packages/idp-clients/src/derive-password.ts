import { createHash } from 'node:crypto'

const digest = (userId: string, clientSecret: string) =>
  createHash('sha256').update(`${userId}${clientSecret}`, 'utf8').digest('hex')

/**
 * The realm-style password of a marketplace user: lowercase hex SHA-256 of `userId + clientSecret` (64
 * characters), the same on every exchange.
 *
 * @example
 * deriveRealmPassword('user_1', 'client-secret-1') // '203425f1…6e09733'
 */
export function deriveRealmPassword(userId: string, clientSecret: string): string {
  return digest(userId, clientSecret)
}

/**
 * The tenant-style password: `Pf!` + the first 29 hex characters of the same digest (32 characters, which
 * passes the tenant's 8+ / upper / lower / digit / special policy).
 *
 * @example
 * deriveTenantPassword('user_1', 'client-secret-1') // 'Pf!203425f18276b8ec604b2842797f9'
 */
export function deriveTenantPassword(userId: string, clientSecret: string): string {
  return `Pf!${digest(userId, clientSecret).slice(0, 29)}`
}
