import { randomBytes } from 'node:crypto'

/**
 * A password nobody keeps, for a database user that cannot exist without one (password-less sign-in: Custom
 * Token Exchange): 36 characters with an upper- and a lower-case letter, a digit and a special one, so the
 * strictest policy of a database connection ("excellent") takes it.
 */
export const randomTenantPassword = (): string => `Pf!0${randomBytes(24).toString('base64url')}`
