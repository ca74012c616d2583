import { Type, type Static } from '@sinclair/typebox'

const Id = Type.String({ minLength: 1 })
const Instant = Type.String({ format: 'date-time' })
const Count = Type.Integer()
const open = { additionalProperties: true } as const

/** `data` of `session.created`. */
export const SessionCreatedDataSchema = Type.Object(
  {
    sessionId: Id,
    applicationId: Id,
    userId: Id,
    orgId: Id,
    email: Type.String(),
    durationMinutes: Count,
    startTime: Instant,
    expiresAt: Instant,
    tokenCost: Count,
  },
  { ...open, title: 'SessionCreatedData' },
)
export type SessionCreatedData = Static<typeof SessionCreatedDataSchema>

/** `data` of `session.extended`. */
export const SessionExtendedDataSchema = Type.Object(
  {
    sessionId: Id,
    applicationId: Id,
    userId: Id,
    extensionMinutes: Count,
    previousExpiresAt: Instant,
    newExpiresAt: Instant,
    tokenCost: Count,
    newBalance: Count,
  },
  { ...open, title: 'SessionExtendedData' },
)
export type SessionExtendedData = Static<typeof SessionExtendedDataSchema>

/** `data` of `session.ended`; `reason` is a free string (`expired` is the one value the spec gives). */
export const SessionEndedDataSchema = Type.Object(
  {
    sessionId: Id,
    applicationId: Id,
    userId: Id,
    reason: Type.String(),
    actualDurationMinutes: Count,
    totalTokensSpent: Count,
  },
  { ...open, title: 'SessionEndedData' },
)
export type SessionEndedData = Static<typeof SessionEndedDataSchema>

/** `data` of `purchase.completed`. */
export const PurchaseCompletedDataSchema = Type.Object(
  {
    purchaseId: Id,
    sessionId: Id,
    applicationId: Id,
    userId: Id,
    itemId: Id,
    itemName: Type.String(),
    tokenCost: Count,
    newBalance: Count,
    idempotencyKey: Id,
  },
  { ...open, title: 'PurchaseCompletedData' },
)
export type PurchaseCompletedData = Static<typeof PurchaseCompletedDataSchema>

/** `data` of `purchase.failed`; `errorCode` is a free string (`INSUFFICIENT_BALANCE` is the one given). */
export const PurchaseFailedDataSchema = Type.Object(
  {
    sessionId: Id,
    applicationId: Id,
    userId: Id,
    itemId: Id,
    errorCode: Type.String(),
    errorMessage: Type.String(),
    currentBalance: Count,
    required: Count,
  },
  { ...open, title: 'PurchaseFailedData' },
)
export type PurchaseFailedData = Static<typeof PurchaseFailedDataSchema>

/** The data schema of each event kind. */
export const WEBHOOK_EVENT_DATA_SCHEMAS = {
  'session.created': SessionCreatedDataSchema,
  'session.extended': SessionExtendedDataSchema,
  'session.ended': SessionEndedDataSchema,
  'purchase.completed': PurchaseCompletedDataSchema,
  'purchase.failed': PurchaseFailedDataSchema,
} as const

export interface WebhookEventDataMap {
  'session.created': SessionCreatedData
  'session.extended': SessionExtendedData
  'session.ended': SessionEndedData
  'purchase.completed': PurchaseCompletedData
  'purchase.failed': PurchaseFailedData
}
