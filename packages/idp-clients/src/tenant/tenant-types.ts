import type { AccountAdoption } from '../account-adoption'
import type { SignInGrant } from '../identity-provider'
import type { RetryOptions } from '../lib/http-client'

/** The database connection Auth0 creates by default. */
export const DEFAULT_CONNECTION = 'Username-Password-Authentication'

/** A user as the Management API v2 returns it (the fields this client reads). */
export interface Auth0User {
  user_id: string
  email?: string
  email_verified?: boolean
  /** Blocked by an administrator (absent when not). */
  blocked?: boolean
  app_metadata?: Record<string, unknown>
  identities?: { connection: string; provider?: string; user_id?: string; isSocial?: boolean }[]
  /** ISO 8601: the user's last sign-in (a password grant counts); absent when it never signed in. */
  last_login?: string
}

export interface TenantClientOptions {
  /** The tenant domain, e.g. `acme.eu.auth0.com`. */
  domain: string
  /** Where requests go; default `https://{domain}` (an emulator or a proxy otherwise). */
  baseUrl?: string
  clientId: string
  clientSecret: string
  /** The database connection's exact name: users are created, found and signed in there only. */
  connection?: string
  /** A custom API audience for the password grant (needed for JWT access tokens with custom claims). */
  audience?: string
  /** What a 409 on create may do with the existing holder of the email. Default `verified`. */
  adoption?: AccountAdoption
  timeoutMs?: number
  /** Retries of 408, 429 and 5xx (the vendor SDK's defaults: 2 retries). */
  retry?: RetryOptions
  /** For tests: how to wait. */
  sleep?: (ms: number) => Promise<void>
  /** How users sign in (default the password grant): `token-exchange` is Custom Token Exchange. */
  signInGrant?: SignInGrant
}
