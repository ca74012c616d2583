import type { Static, TSchema } from '@sinclair/typebox'
import type { ValidateFunction } from 'ajv'
import { ajv } from './lib/ajv'
import { formatValidationErrors } from './lib/format-validation-errors'
import type { ValidationResult } from './validation-result'

/**
 * A validator for a schema, compiled once (lazily, on first call) by the package's ajv 2020-12 instance.
 *
 * @example
 * const validate = createValidator(QueryEnvelopeSchema)
 * const result = validate(req.body)
 * if (!result.ok) return res.status(400).json({ error: result.error })
 */
export function createValidator<S extends TSchema>(
  schema: S,
): (value: unknown) => ValidationResult<Static<S>> {
  let compiled: ValidateFunction | undefined
  return (value) => {
    compiled ??= ajv.compile(schema)
    if (compiled(value)) return { ok: true, value: value as Static<S> }
    return { ok: false, error: formatValidationErrors(compiled.errors ?? []) }
  }
}
