import type { CallbackPayload } from './callback-payload'

type Nullable<T> = { [K in keyof T]: T[K] | null }

/**
 * The exact JSON body of a status callback, with null (and undefined) fields omitted (spec, "Callback
 * payload"). Sign these bytes, and send these bytes.
 *
 * @example
 * serializeCallbackPayload({ queryId: 'q', status: 'failed', recordCount: 0, executionTimeMs: 4, error: 'x', delivery: null })
 * // '{"queryId":"q","status":"failed","recordCount":0,"executionTimeMs":4,"error":"x"}'
 */
export function serializeCallbackPayload(payload: Nullable<CallbackPayload>): string {
  return JSON.stringify(payload, (_key, value: unknown) => (value === null ? undefined : value))
}
