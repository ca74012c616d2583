import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'

/** An Action of the tenant, deployed from a source file (only the `custom-token-exchange` trigger is emulated). */
export interface EmulatedAuth0Action {
  id: string
  name: string
  /** The Action's source: a CommonJS file exporting `onExecuteCustomTokenExchange`. */
  file: string
  /** Its secrets (`event.secrets`). */
  secrets: Record<string, string>
}

/** What a Custom Token Exchange Action decided. */
export type ExchangeOutcome =
  | { kind: 'user'; userId: string; appMetadata: Record<string, unknown> }
  | { kind: 'denied'; code: string; reason: string }
  | { kind: 'rejected'; reason: string }
  | { kind: 'failed'; message: string }
  | { kind: 'no-user' }

type Handler = (event: unknown, api: unknown) => Promise<void> | void

/**
 * An Action's handler (`exportName`), loaded from its file in this process as Auth0 loads it (a CommonJS module:
 * `exports`, `module`, `require` resolving from the file's folder). Read anew on each run, so a test sees the file
 * as it is.
 */
export function loadActionHandler(file: string, exportName: string): Handler {
  const module = { exports: {} as Record<string, unknown> }
  const source = readFileSync(file, 'utf8')
  new Function('exports', 'require', 'module', '__filename', '__dirname', source)(
    module.exports,
    createRequire(file),
    module,
    file,
    dirname(file),
  )
  const handler = module.exports[exportName]
  if (typeof handler !== 'function') throw new Error(`${file} exports no ${exportName}`)
  return handler as Handler
}

/**
 * `api.cache` of the Actions of one trigger (custom-token-exchange-api-object.mdx, "api.cache"): string values,
 * `ttl` or `expires_at` (ms), 15 minutes by default; `get` answers `{ value }` or undefined.
 */
export function createActionCache() {
  const records = new Map<string, { value: string; expiresAt: number }>()
  return {
    get(key: string) {
      const record = records.get(key)
      if (!record || record.expiresAt <= Date.now()) return undefined
      return { value: record.value }
    },
    set(key: string, value: string, options: { ttl?: number; expires_at?: number } = {}) {
      const limits = [Date.now() + (options.ttl ?? 15 * 60_000), options.expires_at ?? Infinity]
      records.set(key, { value: String(value), expiresAt: Math.min(...limits) })
      return { type: 'success' }
    },
    delete(key: string) {
      records.delete(key)
      return { type: 'success' }
    },
  }
}
export type ActionCache = ReturnType<typeof createActionCache>

export interface ExchangeEvent {
  secrets: Record<string, string>
  client: { client_id: string; name: string; metadata: Record<string, string> }
  request: { ip: string; method: string; body: Record<string, unknown>; geoip: Record<string, unknown> }
  resource_server: { identifier: string }
  tenant: { id: string }
  transaction: {
    subject_token: string
    subject_token_type: string
    requested_scopes: string[]
    requested_token_type: string
  }
}

/**
 * Runs a Custom Token Exchange Action with Auth0's `api` object (custom-token-exchange-api-object.mdx):
 * `api.authentication.setUserById` / `setUserByConnection` (exactly one must be called), `api.access.deny(code,
 * reason)`, `api.access.rejectInvalidSubjectToken(reason)`, `api.user.setAppMetadata`, `api.cache`. A denial or
 * rejection wins over a user set in the same run; a thrown error fails the exchange.
 */
export async function runExchangeAction(
  action: EmulatedAuth0Action,
  event: ExchangeEvent,
  cache: ActionCache,
): Promise<ExchangeOutcome> {
  let userId: string | undefined
  let refusal: ExchangeOutcome | undefined
  const appMetadata: Record<string, unknown> = {}
  const api = {
    access: {
      deny: (code: string, reason: string) => void (refusal ??= { kind: 'denied', code, reason }),
      rejectInvalidSubjectToken: (reason: string) => void (refusal ??= { kind: 'rejected', reason }),
    },
    authentication: {
      setUserById: (id: string) => void (userId = id),
      // (unconfirmed) setUserByConnection with creation is not emulated: the exchange never uses it (it carries
      // no app_metadata, issue 39); asked for, the run fails rather than pretend.
      setUserByConnection: () => {
        throw new Error('setUserByConnection is not emulated')
      },
      setOrganization: () => {},
      setActor: () => {},
    },
    user: {
      setAppMetadata: (key: string, value: unknown) => void (appMetadata[key] = value),
      setUserMetadata: () => {},
    },
    cache,
  }
  try {
    await loadActionHandler(action.file, 'onExecuteCustomTokenExchange')(event, api)
  } catch (error) {
    return { kind: 'failed', message: (error as Error).message }
  }
  if (refusal) return refusal
  return userId === undefined ? { kind: 'no-user' } : { kind: 'user', userId, appMetadata }
}
