import type { WebhookHandlers } from '@pf/schemas'

/**
 * Used when WEBHOOK_HANDLERS is not set: each event is logged as one structured line with its identifiers,
 * so a new deployment shows what arrives before any business code is written.
 */
export const defaultHandlers: WebhookHandlers = {
  'session.created': async ({ webhookId, data }, { logger }) =>
    logger.info(
      {
        webhookId,
        sessionId: data.sessionId,
        userId: data.userId,
        orgId: data.orgId,
        expiresAt: data.expiresAt,
      },
      'session.created',
    ),
  'session.extended': async ({ webhookId, data }, { logger }) =>
    logger.info(
      { webhookId, sessionId: data.sessionId, newExpiresAt: data.newExpiresAt, newBalance: data.newBalance },
      'session.extended',
    ),
  'session.ended': async ({ webhookId, data }, { logger }) =>
    logger.info(
      { webhookId, sessionId: data.sessionId, reason: data.reason, totalTokensSpent: data.totalTokensSpent },
      'session.ended',
    ),
  'purchase.completed': async ({ webhookId, data }, { logger }) =>
    logger.info(
      {
        webhookId,
        purchaseId: data.purchaseId,
        itemId: data.itemId,
        tokenCost: data.tokenCost,
        idempotencyKey: data.idempotencyKey,
      },
      'purchase.completed',
    ),
  'purchase.failed': async ({ webhookId, data }, { logger }) =>
    logger.info(
      {
        webhookId,
        itemId: data.itemId,
        errorCode: data.errorCode,
        currentBalance: data.currentBalance,
        required: data.required,
      },
      'purchase.failed',
    ),
}
