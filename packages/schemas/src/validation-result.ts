/** What every validator returns: the typed value, or one readable error sentence. */
export type ValidationResult<T> = { ok: true; value: T } | { ok: false; error: string }
