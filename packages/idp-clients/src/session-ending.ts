import { parseDateTime } from '@pf/schemas'

/** What `endUserSessions` is asked: whose sessions, and the marketplace session's end (its event's `timestamp`). */
export interface EndUserSessionsInput {
  pfUserId: string
  /**
   * A date-time as the webhook schema accepts it (the event's `timestamp`, read by `parseDateTime` of
   * `@pf/schemas`: an hour-only offset and a leap second included), epoch milliseconds or a Date. Sessions
   * (refresh tokens) that started after it are kept.
   */
  endedAt: Date | string | number
}

/**
 * What `endUserSessions` did. `ended`: the account was found and every session (Keycloak) or refresh token
 * (Auth0) that started at or before `endedAt` is gone (`ended` counts those this run ended: 0 on a second run),
 * `kept` counts those that started later; `undecided` counts earlier ones this server or plan cannot tell from
 * later ones: they are kept, and end with the later session's own end. `reason` says why some were undecided,
 * or what could not be looked at (Keycloak's offline sessions, without the role to list clients).
 * `unknown-user`: no account is linked to the marketplace user. `linked-elsewhere`: the only accounts found are
 * linked to other marketplace users (never touched). `nothing-to-end`: the sign-ins keep no session (`reason`).
 * None of these is worth a retry.
 */
export type EndUserSessionsResult =
  | {
      outcome: 'ended'
      /** The provider account's id. */
      accountId: string
      ended: number
      kept: number
      undecided: number
      reason?: string
    }
  | { outcome: 'unknown-user' }
  | { outcome: 'linked-elsewhere'; accountIds: string[] }
  /** The provider keeps no session for this mode's sign-ins (the JWT Authorization Grant's are transient). */
  | { outcome: 'nothing-to-end'; reason: string }

/**
 * `endedAt` in epoch milliseconds, a string read as the webhook schema reads it (one parser: whatever the
 * receiver validated, and checked the age of, is read here alike); a value that is not a time is a caller's bug.
 */
export function endedAtMs(endedAt: EndUserSessionsInput['endedAt']): number {
  const ms =
    endedAt instanceof Date
      ? endedAt.getTime()
      : typeof endedAt === 'number'
        ? endedAt
        : (parseDateTime(endedAt) ?? Number.NaN)
  if (!Number.isFinite(ms)) throw new TypeError(`endUserSessions: endedAt is not a time (${String(endedAt)})`)
  return ms
}

/** The result for a marketplace user without an account of its own. */
export const notFound = (others: { id: string }[]): EndUserSessionsResult =>
  others.length > 0
    ? { outcome: 'linked-elsewhere', accountIds: others.map((o) => o.id) }
    : { outcome: 'unknown-user' }
