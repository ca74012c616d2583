import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import request from 'supertest'
import { verifyCallback } from '@pf/signing'
import {
  createLogger,
  createProvider,
  defineEndpoint,
  SearchError,
  type SearchContext,
} from '@pf/provider-kit'

// A provider of one made-up dataset, built only from the kit's public API, in process (supertest); its
// callbacks go to a local recorder.
const contexts: SearchContext[] = []
const vehicles = defineEndpoint<{ make: string; fail?: string }, { vin: string }>({
  name: 'vehicles',
  parameters: {
    type: 'object',
    properties: { make: { type: 'string', minLength: 1, pattern: '\\S' }, fail: { type: 'string' } },
    required: ['make'],
    additionalProperties: false,
  },
  check: ({ make }) => (make === 'forbidden' ? 'make is not searchable' : undefined),
  async *search({ make, fail }, context) {
    contexts.push(context)
    if (fail === 'told') throw new SearchError('the registry is closed on Sundays')
    if (fail === 'untold') throw new Error('connect ECONNREFUSED 10.0.0.7:5432')
    yield { vin: `${make}-1` }
    yield { vin: `${make}-2` }
  },
})
const counted = defineEndpoint({
  name: 'counted',
  path: '/api/v2/counted',
  parameters: { type: 'object' },
  answerFields: { total: { type: 'integer' } },
  search: () => ({ results: [{ n: 1 }], truncated: true, fields: { total: 7 } }),
})

let recorder: Server
const callbacks: { headers: IncomingHttpHeaders; body: Buffer }[] = []
let callbackUrl: string
beforeAll(async () => {
  recorder = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      callbacks.push({ headers: req.headers, body: Buffer.concat(chunks) })
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
  endpoints: [vehicles, counted],
  apiKeys: ['key-1'],
  logger: createLogger({ name: 'test', level: 'silent' }),
  s3: { defaultBucket: 'pf-deliveries', endpoint: 'http://127.0.0.1:9' },
  outbound: { allowPrivate: true, timeoutMs: 2000 },
  searchTimeoutMs: 1500,
  routes: (router) => {
    router.get('/makes', (_req, res) => void res.json({ makes: ['vw'] }))
    router.delete('/makes/:make', (_req, res) => void res.status(204).end())
    // Reads its body itself: it sees the bytes as sent, however large or malformed.
    router.post('/makes/:make/notes', (req, res) => {
      let bytes = 0
      req.on('data', (chunk: Buffer) => (bytes += chunk.length))
      req.on('end', () => void res.json({ bytes }))
    })
  },
  routeDocs: [
    {
      method: 'get',
      path: '/makes',
      summary: 'The makes searched',
      responses: {
        '200': {
          description: 'the makes',
          schema: { type: 'object', properties: { makes: { type: 'array', items: { type: 'string' } } } },
        },
      },
    },
    {
      method: 'post',
      path: '/makes/{make}/notes',
      summary: 'Notes on a make, streamed',
      pathParameters: { make: { type: 'string', maxLength: 20 } },
      query: { source: { schema: { type: 'string' }, description: 'who wrote them', required: true } },
      requestBody: { type: 'array', items: { type: 'string' } },
      requestMediaTypes: { 'application/x-ndjson': { type: 'string' } },
      streamed: true,
      responses: { '200': { description: 'read', schema: { type: 'object' } } },
    },
  ],
})
const post = (path: string, body: object) =>
  request(provider.app).post(path).set('X-PF-Api-Key', 'key-1').send(body)
const callbackOf = (queryId: string) => {
  const found = callbacks.find(
    (c) => (JSON.parse(c.body.toString()) as { queryId: string }).queryId === queryId,
  )
  return found && { ...found, payload: JSON.parse(found.body.toString()) as Record<string, unknown> }
}

describe('createProvider: interface A around endpoints a team defines', () => {
  it('answers an endpoint whose search is an async generator inline, after a signed callback (spec, "Status callback")', async () => {
    const before = Date.now()
    const res = await post('/api/search/vehicles', {
      queryId: 'q-1',
      callbackUrl,
      callbackToken: 'tok',
      parameters: { make: 'vw' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      queryId: 'q-1',
      recordCount: 2,
      results: [{ vin: 'vw-1' }, { vin: 'vw-2' }],
    })
    const callback = callbackOf('q-1')
    expect(callback?.payload).toMatchObject({
      status: 'delivered',
      recordCount: 2,
      delivery: { mechanism: 'inline' },
    })
    expect(verifyCallback('tok', callback!.body, String(callback!.headers['x-pf-signature']))).toBe(true)
    const context = contexts.at(-1)!
    expect(context).toMatchObject({ queryId: 'q-1', mechanism: 'inline' })
    expect(context.deadline).toBeGreaterThanOrEqual(before + 1500)
    expect(context.signal.aborted).toBe(false)
    expect(typeof context.logger.info).toBe('function')
    expect(typeof context.trace.setAttribute).toBe('function')
  })

  it.each([
    ['the schema refuses', { make: '  ' }, /^invalid parameters: /],
    ['the endpoint check refuses', { make: 'forbidden' }, /^invalid parameters: make is not searchable$/],
  ])(
    'answers 400 {error, queryId} with no callback when %s (spec, second row)',
    async (_what, parameters, error) => {
      const queryId = `q-refused-${String(parameters.make).trim() || 'blank'}`
      const res = await post('/api/search/vehicles', { queryId, callbackUrl, parameters })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ error: expect.stringMatching(error), queryId })
      expect(callbackOf(queryId)).toBeUndefined()
    },
  )

  it("tells a SearchError's text, and only a generic one for any other error, in the 500 and the failed callback", async () => {
    const told = await post('/api/search/vehicles', {
      queryId: 'q-told',
      callbackUrl,
      parameters: { make: 'vw', fail: 'told' },
    })
    expect(told.status).toBe(500)
    expect(told.body).toEqual({
      error: 'search failed: the registry is closed on Sundays',
      queryId: 'q-told',
    })
    const untold = await post('/api/search/vehicles', {
      queryId: 'q-untold',
      callbackUrl,
      parameters: { make: 'vw', fail: 'untold' },
    })
    expect(untold.body).toEqual({ error: 'search failed', queryId: 'q-untold' })
    expect(callbackOf('q-untold')?.payload).toMatchObject({
      status: 'failed',
      recordCount: 0,
      error: 'search failed',
    })
  })

  it('adds what a search says to its answer: truncated, and its own fields; answers on its own path', async () => {
    const res = await post('/api/v2/counted', { queryId: 'q-c', callbackUrl })
    expect(res.body).toMatchObject({
      queryId: 'q-c',
      recordCount: 1,
      truncated: true,
      total: 7,
      results: [{ n: 1 }],
    })
  })

  it('serves extra routes under /api behind the same API key; /health needs none', async () => {
    expect((await request(provider.app).get('/api/makes')).status).toBe(401)
    const res = await request(provider.app).get('/api/makes').set('X-PF-Api-Key', 'key-1')
    expect(res.body).toEqual({ makes: ['vw'] })
    expect((await request(provider.app).get('/health')).status).toBe(200)
  })

  it('documents each endpoint in /openapi.json from its definition', async () => {
    const { body } = await request(provider.app).get('/openapi.json')
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining(['/api/search/vehicles', '/api/v2/counted']),
    )
    expect(body.components.schemas.VehiclesParameters).toMatchObject({ required: ['make'] })
    expect(body.components.schemas.InlineAnswer.properties.total).toEqual({ type: 'integer' })
  })

  it('documents the extra routes in /openapi.json: with their schemas, behind the API key; one without docs still listed', async () => {
    const { body } = await request(provider.app).get('/openapi.json')
    const makes = body.paths['/api/makes'].get
    expect(makes).toMatchObject({ summary: 'The makes searched', security: [{ apiKey: [] }] })
    expect(makes.responses['200'].content['application/json'].schema.properties.makes).toEqual({
      type: 'array',
      items: { type: 'string' },
    })
    expect(Object.keys(makes.responses)).toEqual(expect.arrayContaining(['200', '401', '413']))
    const remove = body.paths['/api/makes/{make}'].delete
    expect(remove).toMatchObject({ security: [{ apiKey: [] }], parameters: [{ name: 'make', in: 'path' }] })
  })

  it("documents a route's path and query parameters and each media type of its body; a streamed one without the kit's 413", async () => {
    const { body } = await request(provider.app).get('/openapi.json')
    const notes = body.paths['/api/makes/{make}/notes'].post
    expect(notes.parameters).toEqual([
      { name: 'make', in: 'path', required: true, schema: { type: 'string', maxLength: 20 } },
      {
        name: 'source',
        in: 'query',
        required: true,
        schema: { type: 'string' },
        description: 'who wrote them',
      },
    ])
    expect(notes.requestBody.content).toEqual({
      'application/json': { schema: { type: 'array', items: { type: 'string' } } },
      'application/x-ndjson': { schema: { type: 'string' } },
    })
    expect(Object.keys(notes.responses)).toEqual(['200', '401'])
  })

  it('leaves the body of a route documented as streamed unread: past the body limit and not JSON, it reaches the route', async () => {
    const bytes = 300 * 1024
    const res = await request(provider.app)
      .post('/api/Makes/vw/notes/')
      .set('X-PF-Api-Key', 'key-1')
      .set('Content-Type', 'application/json')
      .send('['.repeat(bytes))
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ bytes })
  })

  it('refuses a route doc naming a path parameter its path does not have', () => {
    const logger = createLogger({ name: 'test', level: 'silent' })
    const routeDocs = [
      { method: 'get' as const, path: '/makes', summary: 's', pathParameters: { make: {} }, responses: {} },
    ]
    expect(() =>
      createProvider({
        endpoints: [vehicles],
        apiKeys: ['k'],
        logger,
        s3: { defaultBucket: 'b' },
        routeDocs,
      }),
    ).toThrow(/path parameter "make" not in its path/)
  })

  it('refuses an endpoint name that cannot be a path, two endpoints of one name, and no API key', () => {
    expect(() => defineEndpoint({ name: 'Vehicles/../x', parameters: {}, search: () => [] })).toThrow(
      TypeError,
    )
    const logger = createLogger({ name: 'test', level: 'silent' })
    const s3 = { defaultBucket: 'b' }
    expect(() => createProvider({ endpoints: [vehicles, vehicles], apiKeys: ['k'], logger, s3 })).toThrow(
      /two endpoints/,
    )
    expect(() => createProvider({ endpoints: [vehicles], apiKeys: [], logger, s3 })).toThrow(/apiKeys/)
  })
})
