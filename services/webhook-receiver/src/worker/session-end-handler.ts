import { createIdentityProvider, endUserSessions } from '@pf/idp-clients'
import {
  parseDateTime,
  UnrecoverableWebhookError,
  type WebhookHandler,
  type WebhookHandlers,
} from '@pf/schemas'
import type { SessionEndSettings } from './session-end-settings'

/**
 * The ready-made `session.ended` handler (issue 27): the user's identity-provider sessions (Keycloak) or refresh
 * tokens (Auth0) that started at or before the event's `timestamp` end with the marketplace session; later ones
 * (a session bought in between) stay. An unknown user, or an account linked to another marketplace user, is
 * logged and acknowledged; a provider that is down, slow or answering 5xx/429 throws, so the job is retried on
 * the worker's schedule (ending is idempotent: a retry or a duplicate ends nothing more). The `timestamp` is read
 * by `parseDateTime`, as the receiver's age check read it; one that cannot be read is unrecoverable (a dead
 * letter at once: no retry would read it).
 */
export function createSessionEndHandler({
  idp,
  timeoutMs,
}: SessionEndSettings): WebhookHandler<'session.ended'> {
  const client = createIdentityProvider(idp, { timeoutMs })
  return async ({ webhookId, timestamp, data }, { logger }) => {
    const endedAt = parseDateTime(timestamp)
    if (endedAt === undefined)
      throw new UnrecoverableWebhookError(
        `session.ended: timestamp ${timestamp} cannot be read as a date-time`,
      )
    const result = await endUserSessions(client, { pfUserId: data.userId, endedAt })
    const about = { webhookId, sessionId: data.sessionId, userId: data.userId }
    if (result.outcome === 'ended') {
      const { accountId, ended, kept, undecided, reason } = result
      const log = undecided > 0 || reason ? logger.warn.bind(logger) : logger.info.bind(logger)
      log({ ...about, accountId, ended, kept, undecided, reason }, 'identity-provider sessions ended')
    } else if (result.outcome === 'nothing-to-end') {
      logger.info(
        { ...about, reason: result.reason },
        'session.ended: the identity provider keeps no session',
      )
    } else {
      logger.warn({ ...about, ...result }, 'session.ended: no account of this marketplace user to sign out')
    }
  }
}

/**
 * The handlers with the ready-made `session.ended` handler in front of the application owner's own one (which
 * still runs, after it): unchanged when `IDP_SESSION_END` is off.
 */
export function withSessionEnd(
  handlers: WebhookHandlers,
  settings: SessionEndSettings | undefined,
): WebhookHandlers {
  if (!settings) return handlers
  const endSessions = createSessionEndHandler(settings)
  const own = handlers['session.ended']
  return {
    ...handlers,
    'session.ended': async (event, context) => {
      await endSessions(event, context)
      if (own) await own(event, context)
    },
  }
}
