import type { ErrorObject } from 'ajv'
import { NON_BLANK_PATTERN } from './nullable'

/** `/delivery/url` → `delivery.url`, `/items/0` → `items[0]`. */
function toPath(instancePath: string, property?: string): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
  if (property !== undefined) parts.push(property)
  return parts.reduce(
    (path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part),
    '',
  )
}

function describe(error: ErrorObject): string {
  const path = toPath(error.instancePath)
  const subject = path || 'body'
  switch (error.keyword) {
    case 'required':
      return `${toPath(error.instancePath, (error.params as { missingProperty: string }).missingProperty)} is required`
    case 'type':
      // The spec speaks of required fields being "null" or "missing" alike.
      return error.data === null
        ? `${subject} is required`
        : `${subject} must be ${(error.params as { type: string }).type}`
    case 'pattern':
      return (error.params as { pattern: string }).pattern === NON_BLANK_PATTERN
        ? `${subject} must not be blank`
        : `${subject} ${error.message ?? 'is invalid'}`
    case 'minLength':
      return (error.params as { limit: number }).limit === 1
        ? `${subject} must not be empty`
        : `${subject} ${error.message}`
    default:
      return `${subject} ${error.message ?? 'is invalid'}`
  }
}

const isTypeError = (e: ErrorObject, type?: string) =>
  e.keyword === 'type' && (type === undefined || (e.params as { type: string }).type === type)

/**
 * Drops what a reader does not need: the `anyOf` summary of a nullable field, its null branch's "must be null"
 * when the other branch said something more precise, and "must not be blank" next to "must not be empty".
 */
function relevantErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  return errors.filter((error) => {
    if (error.keyword === 'anyOf') return false
    if (isTypeError(error, 'null')) {
      const precise = (e: ErrorObject) =>
        e.instancePath.startsWith(`${error.instancePath}/`) ||
        (e.instancePath === error.instancePath && !isTypeError(e))
      return !errors.some((e) => e !== error && e.keyword !== 'anyOf' && precise(e))
    }
    if (error.keyword === 'pattern' && (error.params as { pattern: string }).pattern === NON_BLANK_PATTERN) {
      return !errors.some((e) => e.keyword === 'minLength' && e.instancePath === error.instancePath)
    }
    return true
  })
}

/**
 * One readable sentence for an ajv error list, suitable for the spec's `{error}` bodies:
 * `queryId is required; delivery.url must be string or null`.
 */
export function formatValidationErrors(errors: readonly ErrorObject[]): string {
  const messages: string[] = []
  const typesByPath = new Map<string, string[]>()
  for (const error of relevantErrors(errors)) {
    if (isTypeError(error) && error.data !== null) {
      // Several type errors at one path come from the branches of a nullable field: "string or null".
      const types = typesByPath.get(error.instancePath) ?? []
      if (types.length === 0) messages.push(error.instancePath)
      typesByPath.set(error.instancePath, [...types, (error.params as { type: string }).type])
      continue
    }
    messages.push(describe(error))
  }
  return [...new Set(messages)]
    .map((m) =>
      typesByPath.has(m) ? `${toPath(m) || 'body'} must be ${typesByPath.get(m)?.join(' or ')}` : m,
    )
    .join('; ')
}
