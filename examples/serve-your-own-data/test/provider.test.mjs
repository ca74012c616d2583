// The example provider as the platform meets it: the process started as `npm start` starts it, queried over
// HTTP, its callback received on a local server. Runs with `npm test` (node's own test runner).
import { spawn } from 'node:child_process'
import { createHmac } from 'node:crypto'
import { once } from 'node:events'
import { createServer } from 'node:http'
import { createInterface } from 'node:readline'
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'

const API_KEY = 'example-api-key'
let provider
let baseUrl
let callbacks
const received = []

before(async () => {
  callbacks = createServer((req, res) => {
    const chunks = []
    req.on('data', (chunk) => chunks.push(chunk))
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) })
      res.end()
    })
  })
  callbacks.listen(0, '127.0.0.1')
  await once(callbacks, 'listening')
  provider = spawn(process.execPath, [new URL('../src/main.mjs', import.meta.url).pathname], {
    env: { PATH: process.env.PATH, PORT: '0', PF_API_KEY: API_KEY, OUTBOUND_ALLOW_PRIVATE: 'true' },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  for await (const line of createInterface({ input: provider.stdout })) {
    const entry = JSON.parse(line)
    if (entry.msg === 'vehicles provider listening') {
      baseUrl = entry.url
      break
    }
  }
})

after(async () => {
  if (provider.exitCode === null) provider.kill('SIGKILL')
  callbacks.close()
})

const search = (envelope, key = API_KEY) =>
  fetch(`${baseUrl}/api/search/vehicles`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-pf-api-key': key },
    body: JSON.stringify(envelope),
  })

const callbackUrl = () => `http://127.0.0.1:${callbacks.address().port}/callbacks`

test('answers a query inline and posts the signed callback before the answer', async () => {
  const res = await search({
    queryId: 'q-vw',
    callbackUrl: callbackUrl(),
    callbackToken: 'cb-secret',
    parameters: { make: 'volkswagen', model: 'golf' },
  })
  assert.equal(res.status, 200)
  const body = await res.json()
  assert.equal(body.recordCount, 2)
  assert.deepEqual(
    body.results.map((vehicle) => vehicle.vin),
    ['WVWZZZ1JZXW000001', 'WVWZZZ1KZ6W000002'],
  )
  const callback = received.find((request) => JSON.parse(request.body).queryId === 'q-vw')
  assert.ok(callback, 'the callback arrived before the answer')
  const expected = `sha256=${createHmac('sha256', 'cb-secret').update(callback.body).digest('hex')}`
  assert.equal(callback.headers['x-pf-signature'], expected)
  assert.deepEqual(
    { ...JSON.parse(callback.body), executionTimeMs: 0 },
    {
      queryId: 'q-vw',
      status: 'delivered',
      recordCount: 2,
      executionTimeMs: 0,
      delivery: { mechanism: 'inline' },
    },
  )
})

test('says truncated when limit leaves vehicles out', async () => {
  const res = await search({
    queryId: 'q-cap',
    callbackUrl: callbackUrl(),
    parameters: { make: 'Volkswagen', limit: 1 },
  })
  const body = await res.json()
  assert.equal(body.recordCount, 1)
  assert.equal(body.truncated, true)
})

test('refuses a blank make with 400 {error, queryId}, from the schema, and no callback', async () => {
  const res = await search({ queryId: 'q-blank', callbackUrl: callbackUrl(), parameters: { make: ' ' } })
  assert.equal(res.status, 400)
  const body = await res.json()
  assert.deepEqual(Object.keys(body).sort(), ['error', 'queryId'])
  assert.equal(received.filter((request) => JSON.parse(request.body).queryId === 'q-blank').length, 0)
})

test('refuses a wrong API key with a JSON 401; /health needs none; /openapi.json documents the endpoint', async () => {
  const refused = await search(
    { queryId: 'q', callbackUrl: callbackUrl(), parameters: { make: 'BMW' } },
    'wrong',
  )
  assert.equal(refused.status, 401)
  assert.ok((await refused.json()).error)
  assert.equal((await fetch(`${baseUrl}/health`)).status, 200)
  const openApi = await (await fetch(`${baseUrl}/openapi.json`)).json()
  assert.ok(openApi.paths['/api/search/vehicles'].post)
})

test('drains and exits 0 on SIGTERM', async () => {
  provider.kill('SIGTERM')
  const [code] = await once(provider, 'exit')
  assert.equal(code, 0)
})
