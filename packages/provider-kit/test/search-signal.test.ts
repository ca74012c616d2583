import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createLogger, createProvider, defineEndpoint, type SearchContext } from '@pf/provider-kit'

// What a search's `deadline` and `signal` mean, seen from the search: the deadline is the search's own budget
// (the kit aborts nothing there), the signal aborts at the whole-delivery limit and when the platform hangs up.
// Providers served on real sockets, their callbacks recorded locally.
const logger = createLogger({ name: 'test', level: 'silent' })
const s3 = { defaultBucket: 'pf-deliveries', endpoint: 'http://127.0.0.1:9' }

interface Seen {
  context: SearchContext
  ended: boolean
}
const seen = new Map<string, Seen>()
const watch = (context: SearchContext) => {
  const entry = { context, ended: false }
  seen.set(context.queryId, entry)
  return entry
}
const startedWaiters = new Map<string, () => void>()
const started = (queryId: string) =>
  new Promise<void>((resolve) => (seen.has(queryId) ? resolve() : startedWaiters.set(queryId, resolve)))

/** A search past its deadline that reports whether its signal aborted then. */
const overrun = defineEndpoint({
  name: 'overrun',
  parameters: { type: 'object' },
  async search(_parameters, context) {
    watch(context)
    await new Promise((resolve) => setTimeout(resolve, context.deadline - Date.now() + 20))
    return [{ pastDeadline: Date.now() > context.deadline, aborted: context.signal.aborted }]
  },
})
/** A stream that yields one record, then waits for its signal; its `finally` is where a store gives back its cursor. */
const endless = defineEndpoint({
  name: 'endless',
  parameters: { type: 'object' },
  async *search(_parameters, context) {
    const entry = watch(context)
    startedWaiters.get(context.queryId)?.()
    try {
      yield { n: 1 }
      await new Promise((resolve) => context.signal.addEventListener('abort', resolve, { once: true }))
    } finally {
      entry.ended = true
    }
  },
})

const callbacks = new Map<string, Record<string, unknown>>()
const callbackWaiters = new Map<string, (payload: Record<string, unknown>) => void>()
const callbackOf = (queryId: string) =>
  new Promise<Record<string, unknown>>((resolve) => {
    const known = callbacks.get(queryId)
    if (known) resolve(known)
    else callbackWaiters.set(queryId, resolve)
  })
let recorder: Server
let callbackUrl: string
const servers: Server[] = []
const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  servers.push(server)
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}
// The whole-delivery limit short, to see the signal abort there.
const shortLimitProvider = createProvider({
  endpoints: [overrun, endless],
  apiKeys: ['key-1'],
  logger,
  s3,
  outbound: { allowPrivate: true },
  searchTimeoutMs: 30,
  delivery: { timeoutMs: 300 },
})
// The default limit (ten minutes): only the platform hanging up ends the endless search.
const defaultLimitProvider = createProvider({
  endpoints: [endless],
  apiKeys: ['key-1'],
  logger,
  s3,
  outbound: { allowPrivate: true },
})
let shortLimit: string
let defaultLimit: string
beforeAll(async () => {
  recorder = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const payload = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>
      callbacks.set(String(payload.queryId), payload)
      callbackWaiters.get(String(payload.queryId))?.(payload)
      res.end()
    })
  })
  callbackUrl = `${await listen(recorder)}/cb`
  shortLimit = await listen(createServer(shortLimitProvider.app))
  defaultLimit = await listen(createServer(defaultLimitProvider.app))
})
afterAll(async () => {
  for (const provider of [shortLimitProvider, defaultLimitProvider]) await provider.close()
  for (const server of servers) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

const envelope = (queryId: string) =>
  JSON.stringify({ queryId, callbackUrl, callbackToken: 'tok', parameters: {} })
const query = async (base: string, name: string, queryId: string) => {
  const res = await fetch(`${base}/api/search/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-pf-api-key': 'key-1' },
    body: envelope(queryId),
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

describe("a search's deadline and signal", () => {
  it('leaves the signal unaborted past the deadline: the search keeps its own budget, its answer stands', async () => {
    const { status, body } = await query(shortLimit, 'overrun', 'q-overrun')
    expect(status).toBe(200)
    expect(body.results).toEqual([{ pastDeadline: true, aborted: false }])
  })

  it('aborts the signal at the whole-delivery limit: the stream is closed (its finally runs), a 500 and a failed callback', async () => {
    const { status, body } = await query(shortLimit, 'endless', 'q-limit')
    expect(status).toBe(500)
    expect(body).toEqual({ error: 'search failed', queryId: 'q-limit' })
    expect(await callbackOf('q-limit')).toMatchObject({ status: 'failed', recordCount: 0 })
    const entry = seen.get('q-limit')!
    expect(entry.context.signal.aborted).toBe(true)
    expect((entry.context.signal.reason as Error).name).toBe('TimeoutError')
    expect(entry.ended).toBe(true)
  })

  it('aborts the signal when the platform hangs up before the answer: the stream stops, a failed callback is still posted', async () => {
    const sent = httpRequest(`${defaultLimit}/api/search/endless`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-pf-api-key': 'key-1' },
    })
    sent.on('error', () => {})
    sent.end(envelope('q-hangup'))
    await started('q-hangup')
    sent.destroy()
    expect(await callbackOf('q-hangup')).toMatchObject({
      status: 'failed',
      recordCount: 0,
      error: 'search failed',
    })
    const entry = seen.get('q-hangup')!
    expect((entry.context.signal.reason as Error).message).toBe('the platform closed the connection')
    expect(entry.ended).toBe(true)
  })
})
