/**
 * `WEBHOOK_ORDERING`: `off` (the default) hands events to handlers as BullMQ takes them; `session` hands the
 * events of one `data.sessionId` one at a time, in the order of their signed `timestamp`.
 */
export const ORDERING_MODES = ['off', 'session'] as const

export type OrderingMode = (typeof ORDERING_MODES)[number]
