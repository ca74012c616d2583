import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import request from 'supertest'
import { createLogger, createProvider, defineEndpoint } from '@pf/provider-kit'

// Endpoints a team might write carelessly, and the protocol the kit must keep around them; one provider, in
// process, its callbacks recorded locally.
const logger = createLogger({ name: 'test', level: 'silent' })
const s3 = { defaultBucket: 'pf-deliveries', endpoint: 'http://127.0.0.1:9' }
const stuck = defineEndpoint({
  name: 'stuck',
  parameters: { type: 'object' },
  search: () => new Promise<never>(() => {}),
})
const endless = defineEndpoint({
  name: 'endless',
  parameters: { type: 'object' },
  async *search() {
    yield { n: 1 }
    await new Promise<never>(() => {})
  },
})
const clobbering = defineEndpoint({
  name: 'clobbering',
  parameters: { type: 'object' },
  search: () => ({ results: [{ n: 1 }], fields: { queryId: 'other', recordCount: 99, total: 3 } }),
})

let recorder: Server
const callbacks: Record<string, unknown>[] = []
let callbackUrl: string
beforeAll(async () => {
  recorder = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      callbacks.push(JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>)
      res.end()
    })
  })
  await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve))
  callbackUrl = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}/cb`
})
afterAll(async () => {
  await provider.close()
  await new Promise((resolve) => recorder.close(resolve))
})

const provider = createProvider({
  endpoints: [stuck, endless, clobbering],
  apiKeys: ['key-1'],
  logger,
  s3,
  outbound: { allowPrivate: true },
  delivery: { timeoutMs: 100 },
})
const query = (name: string, queryId: string) =>
  request(provider.app)
    .post(`/api/search/${name}`)
    .set('X-PF-Api-Key', 'key-1')
    .send({ queryId, callbackUrl, callbackToken: 'tok', parameters: {} })

describe('createProvider around hostile or careless endpoints', () => {
  it.each([
    ['a search that never settles', 'stuck'],
    ['an inline stream that never ends', 'endless'],
  ])('ends %s at delivery.timeoutMs: a 500 and a failed callback', async (_what, name) => {
    const res = await query(name, `q-${name}`)
    expect(res.status).toBe(500)
    expect(res.body).toEqual({ error: 'search failed', queryId: `q-${name}` })
    expect(callbacks.find((c) => c.queryId === `q-${name}`)).toMatchObject({
      status: 'failed',
      recordCount: 0,
    })
  })

  it('never lets a search field replace a protocol field: answer and callback agree on recordCount', async () => {
    const res = await query('clobbering', 'q-clobber')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ queryId: 'q-clobber', recordCount: 1, total: 3 })
    expect(callbacks.find((c) => c.queryId === 'q-clobber')).toMatchObject({ recordCount: 1 })
  })

  it.each([
    ['a path outside /api (no API key, no body limit)', [{ ...clobbering, path: '/search/x' }]],
    ['two endpoints on one path', [stuck, { ...clobbering, path: '/api/search/stuck' }]],
  ])('refuses %s at creation', (_what, endpoints) => {
    expect(() => createProvider({ endpoints, apiKeys: ['k'], logger, s3 })).toThrow(TypeError)
  })
})
