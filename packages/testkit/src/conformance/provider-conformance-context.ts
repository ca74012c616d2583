import { randomBytes } from 'node:crypto'
import { API_KEY_HEADER } from '@pf/schemas'
import { describeFetchError } from '../platform/describe-fetch-error'
import type { ConformanceListener, HeardRequest } from './conformance-listener'
import type { SuiteS3 } from './suite-s3'

/** What the provider answered to one request, and where that answer falls in the suite's order. */
export interface Answer {
  status: number
  contentType: string
  text: string
  /** The parsed JSON, or undefined when the body is not JSON. */
  body: unknown
  seq: number
}

/** One accepted-path query: the envelope's id, the answer, and the callback it posted (if any came). */
export interface QueryRun {
  queryId: string
  answer: Answer
  callback?: HeardRequest
}

export interface ProviderContext {
  /** The endpoint's path (`/api/search/companies`). */
  path: string
  isSanctions: boolean
  parameters: Record<string, unknown>
  callbackToken: string
  /** The suite's listener as the provider reaches it: `http://host:port`, no trailing slash. */
  base: string
  listener: ConformanceListener
  s3?: SuiteS3
  /** Why the pf_s3_sync rules cannot run, when `s3` is absent. */
  s3Missing: string
  defaultBucket: string
  bucket: string
  /** A fresh `pf-conformance-…` query id, named for what it tests. */
  newId(name: string): string
  /** An envelope for `queryId` with a callback to the listener's `route`, and any field replaced. */
  envelope(queryId: string, fields?: Record<string, unknown>, route?: string): Record<string, unknown>
  /** POSTs a body to the endpoint with the API key (`null`: no key header; a string: that key). */
  post(body: unknown, apiKey?: string | null): Promise<Answer>
  /** POSTs an envelope and waits for its callback (a callback after the answer is waited for, briefly). */
  run(queryId: string, envelope: Record<string, unknown>, route?: string): Promise<QueryRun>
  get(path: string): Promise<Answer>
  /** Once, shared by the rules: the plain inline query (no `delivery`). */
  baseline(): Promise<QueryRun>
  /** Once, shared: the webhook delivery to the listener. */
  webhookRun(): Promise<QueryRun>
  /** Once, shared: a webhook delivery to a route that drops the connection (a delivery that fails). */
  failedRun(): Promise<QueryRun>
  /** Why accepted-path rules cannot run: the provider refused the suite's callback address. */
  callbackRefused(): Promise<string | undefined>
  /** Ids whose callback must never come, checked after every rule ran (so no rule waits for nothing). */
  quiet: { rule: string; ids: string[] }[]
}

export interface ContextOptions {
  url: string
  apiKey: string
  path: string
  parameters: Record<string, unknown>
  base: string
  listener: ConformanceListener
  s3?: SuiteS3
  s3Missing: string
  defaultBucket: string
  bucket: string
  callbackWaitMs: number
  requestTimeoutMs: number
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** The wording of an outbound-safety refusal: the callback address named, or a private/non-public address. */
export const OUTBOUND_REFUSAL = /callback|non-public|private|loopback|not allowed|outbound/i

/** A rule's shared state: the listener, the provider's address, and the queries several rules look at. */
export function createProviderContext(options: ContextOptions): ProviderContext {
  const { url, apiKey, path, listener, base, callbackWaitMs, requestTimeoutMs } = options
  const runId = randomBytes(4).toString('hex')
  let count = 0
  const callbackToken = `pf-conformance-${randomBytes(16).toString('hex')}`
  const target = (p: string) => `${url.replace(/\/+$/, '')}${p}`

  async function request(method: string, to: string, init: RequestInit): Promise<Answer> {
    let res: Response
    try {
      res = await fetch(target(to), { method, ...init, signal: AbortSignal.timeout(requestTimeoutMs) })
    } catch (error) {
      throw new Error(`no answer from ${target(to)}: ${describeFetchError(error)}`)
    }
    const text = await res.text()
    // Numbered once the whole answer is in: a callback numbered before this came before the answer.
    return {
      status: res.status,
      contentType: res.headers.get('content-type') ?? '',
      text,
      body: parse(text),
      seq: listener.tick(),
    }
  }

  const memo = <T>(make: () => Promise<T>) => {
    let promise: Promise<T> | undefined
    return () => (promise ??= make())
  }

  const context: ProviderContext = {
    path,
    isSanctions: /(^|\/)sanctions$/.test(path),
    parameters: options.parameters,
    callbackToken,
    base,
    listener,
    s3: options.s3,
    s3Missing: options.s3Missing,
    defaultBucket: options.defaultBucket,
    bucket: options.bucket,
    quiet: [],
    newId: (name) => `pf-conformance-${runId}-${++count}-${name.replace(/\s+/g, '-')}`,
    envelope: (queryId, fields = {}, route = 'callback') => ({
      queryId,
      endpoint: path,
      parameters: options.parameters,
      callbackUrl: `${base}/${route}/${encodeURIComponent(queryId)}`,
      callbackToken,
      ...fields,
    }),
    post: (body, key = apiKey) =>
      request('POST', path, {
        headers: { 'content-type': 'application/json', ...(key === null ? {} : { [API_KEY_HEADER]: key }) },
        body: JSON.stringify(body),
      }),
    get: (to) => request('GET', to, {}),
    async run(queryId, envelope, route = 'callback') {
      const answer = await context.post(envelope)
      const expected = answer.status !== 400 && answer.status !== 401
      const callback = expected
        ? await listener.waitFor(new RegExp(`^${route}$`), queryId, callbackWaitMs)
        : undefined
      return { queryId, answer, callback }
    },
    baseline: memo(() => {
      const queryId = context.newId('inline')
      return context.run(queryId, context.envelope(queryId))
    }),
    webhookRun: memo(() => {
      const queryId = context.newId('webhook')
      const delivery = { mechanism: 'webhook', url: `${base}/results/${encodeURIComponent(queryId)}` }
      return context.run(queryId, context.envelope(queryId, { delivery }))
    }),
    failedRun: memo(() => {
      const queryId = context.newId('failing-delivery')
      const delivery = { mechanism: 'webhook', url: `${base}/results-drop/${encodeURIComponent(queryId)}` }
      return context.run(queryId, context.envelope(queryId, { delivery }))
    }),
    callbackRefused: memo(async () => {
      const { answer } = await context.baseline()
      const error = (answer.body as { error?: unknown } | undefined)?.error
      if (answer.status !== 400 || typeof error !== 'string' || !OUTBOUND_REFUSAL.test(error))
        return undefined
      return (
        `the provider refused the suite's callback address ${base} (400 ${JSON.stringify(error)}): ` +
        'let it post to that address (the reference provider: OUTBOUND_ALLOW_PRIVATE=true, for tests only), ' +
        'or give --callback-url an address it may reach'
      )
    }),
  }
  return context
}
