/** A user as the Management API v2 returns it (the fields this client reads). */
export interface Auth0User {
  user_id: string
  email?: string
  email_verified?: boolean
  app_metadata?: Record<string, unknown>
}

export interface TenantClientOptions {
  /** The tenant domain, e.g. `acme.eu.auth0.com`. */
  domain: string
  /** Where requests go; default `https://{domain}` (an emulator or a proxy otherwise). */
  baseUrl?: string
  clientId: string
  clientSecret: string
  /** The database connection's exact name. */
  connection?: string
  /** A custom API audience for the password grant (needed for JWT access tokens with custom claims). */
  audience?: string
  timeoutMs?: number
  /** Bounded retries of 429 answers, with exponential backoff and jitter. */
  rateLimit?: { maxRetries?: number; baseDelayMs?: number; maxDelayMs?: number }
  /** For tests: how to wait. */
  sleep?: (ms: number) => Promise<void>
}
