import { Writable } from 'node:stream'
import express from 'express'
import {
  createEnvReader,
  createLogger,
  createMetricsRegistry,
  createOpsRouter,
  createReadinessCheck,
  listen,
  listenMetrics,
  readOpsSettings,
  type OpsSettings,
  type RunningServer,
} from '../src'

const servers: RunningServer[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
})

/** A dependency check that counts its calls; while `held`, each call waits for `release()`. */
function countedCheck() {
  const waiting: (() => void)[] = []
  const check = {
    calls: 0,
    outcome: undefined as Error | undefined,
    held: false,
    run: async () => {
      check.calls += 1
      if (check.held) await new Promise<void>((resolve) => waiting.push(resolve))
      if (check.outcome) throw check.outcome
      // What a provider's check could know: the door must not repeat it.
      return { lists: [{ source: 'https://host/sdn.csv', sha256: 'ab'.repeat(32) }] }
    },
    release: () => {
      check.held = false
      for (const resolve of waiting.splice(0)) resolve()
    },
  }
  return check
}

async function startOps(ready: () => Promise<unknown>, ops: OpsSettings, logs: string[] = []) {
  const logger = createLogger({
    name: 'test',
    destination: new Writable({ write: (chunk, _enc, done) => void (logs.push(String(chunk)), done()) }),
  })
  const registry = createMetricsRegistry('pf_test')
  const app = express().use(createOpsRouter({ registry, ready, ops, logger }))
  const server = await listen(app, { port: 0, host: '127.0.0.1' })
  servers.push(server)
  return { server, registry }
}

const get = async (url: string) => {
  const res = await fetch(url)
  return { status: res.status, text: await res.text() }
}

describe('createReadinessCheck: the dependencies at most once per READY_CACHE_MS (counted on a test clock)', () => {
  it('lets concurrent callers share the one check in flight', async () => {
    const check = countedCheck()
    check.held = true
    const ready = createReadinessCheck(check.run, { cacheMs: 0 })
    const callers = Array.from({ length: 100 }, () => ready())
    expect(check.calls).toBe(1)
    check.release()
    await Promise.all(callers)
    expect(check.calls).toBe(1)
  })

  it('reuses an outcome until cacheMs after it settled, then checks again', async () => {
    let now = 1_000_000
    const check = countedCheck()
    const ready = createReadinessCheck(check.run, { cacheMs: 2000, now: () => now })
    await ready()
    for (let i = 0; i < 50; i += 1) await ready()
    now += 1999
    await ready()
    expect(check.calls).toBe(1)
    now += 1
    await ready()
    expect(check.calls).toBe(2)
  })

  it('reuses a failure the same way: a dependency down is not asked once per stranger', async () => {
    let now = 0
    const check = countedCheck()
    check.outcome = new Error('bucket unreachable')
    const ready = createReadinessCheck(check.run, { cacheMs: 2000, now: () => now })
    for (let i = 0; i < 20; i += 1) await expect(ready()).rejects.toThrow('bucket unreachable')
    expect(check.calls).toBe(1)
    check.outcome = undefined
    now += 2000
    await expect(ready()).resolves.toBeUndefined()
    expect(check.calls).toBe(2)
  })

  it('checks on every call that finds none in flight when cacheMs is 0', async () => {
    const check = countedCheck()
    const ready = createReadinessCheck(check.run, { cacheMs: 0 })
    for (let i = 0; i < 3; i += 1) await ready()
    expect(check.calls).toBe(3)
  })
})

describe('createOpsRouter: the door says little', () => {
  it('answers /health and /ready {status} only, whatever the check knows', async () => {
    const check = countedCheck()
    const { server } = await startOps(check.run, { readyCacheMs: 0 })
    expect(await get(`${server.url}/health`)).toEqual({ status: 200, text: '{"status":"ok"}' })
    expect(await get(`${server.url}/ready`)).toEqual({ status: 200, text: '{"status":"ready"}' })
  })

  it('answers 503 {status} without the reason, and logs the reason once per check', async () => {
    const check = countedCheck()
    check.outcome = new Error('connect ECONNREFUSED 10.0.0.7:9000')
    const logs: string[] = []
    const { server } = await startOps(check.run, { readyCacheMs: 60_000 }, logs)
    for (let i = 0; i < 10; i += 1)
      expect(await get(`${server.url}/ready`)).toEqual({ status: 503, text: '{"status":"not ready"}' })
    expect(logs.filter((line) => line.includes('ECONNREFUSED 10.0.0.7'))).toHaveLength(1)
  })

  it('reaches the dependency once for 50 strangers at once and 20 more after (READY_CACHE_MS)', async () => {
    const check = countedCheck()
    check.held = true
    const { server } = await startOps(check.run, { readyCacheMs: 60_000 })
    const burst = Array.from({ length: 50 }, () => get(`${server.url}/ready`))
    while (check.calls === 0) await new Promise((resolve) => setImmediate(resolve))
    check.release()
    expect(new Set((await Promise.all(burst)).map((answer) => answer.status))).toEqual(new Set([200]))
    for (let i = 0; i < 20; i += 1) expect((await get(`${server.url}/ready`)).status).toBe(200)
    expect(check.calls).toBe(1)
  })

  it('serves /metrics on the main port while METRICS_PORT is unset', async () => {
    const { server, registry } = await startOps(async () => {}, { readyCacheMs: 0 })
    const metrics = await get(`${server.url}/metrics`)
    expect(metrics.status).toBe(200)
    expect(metrics.text).toMatch(/^pf_test_process_cpu_user_seconds_total /m)
    expect(await listenMetrics(registry, { port: undefined })).toBeUndefined()
  })

  it('with METRICS_PORT, serves /metrics there alone and not on the main port', async () => {
    const { server, registry } = await startOps(async () => {}, { readyCacheMs: 0, metricsPort: 0 })
    const own = (await listenMetrics(registry, { port: 0, host: '127.0.0.1' }))!
    servers.push(own)
    expect((await get(`${server.url}/metrics`)).status).toBe(404)
    const metrics = await get(`${own.url}/metrics`)
    expect(metrics.status).toBe(200)
    expect(metrics.text).toMatch(/^pf_test_process_cpu_user_seconds_total /m)
    expect((await get(`${own.url}/health`)).status).toBe(404)
    expect((await get(`${own.url}/ready`)).status).toBe(404)
  })
})

describe('readOpsSettings: READY_CACHE_MS and METRICS_PORT', () => {
  it('defaults to a 2000 ms cache and /metrics on the main port', () => {
    const env = createEnvReader({})
    expect(readOpsSettings(env, { port: 3002 })).toEqual({ readyCacheMs: 2000 })
    env.done()
  })

  it('reads both', () => {
    const env = createEnvReader({ READY_CACHE_MS: '0', METRICS_PORT: '9102' })
    expect(readOpsSettings(env, { port: 3002 })).toEqual({ readyCacheMs: 0, metricsPort: 9102 })
    env.done()
  })

  it('reads HOST, the address to bind to, and refuses one that is no address or host name', () => {
    const env = createEnvReader({ HOST: '127.0.0.1' })
    expect(readOpsSettings(env, { port: 3002 })).toEqual({ readyCacheMs: 2000, host: '127.0.0.1' })
    env.done()
    const bad = createEnvReader({ HOST: 'http://x/' })
    readOpsSettings(bad, { port: 3002 })
    expect(() => bad.done()).toThrow(/HOST must be an address or a host name/)
  })

  it('refuses a metrics port that is the main port, and values that are not ports or durations', () => {
    const same = createEnvReader({ METRICS_PORT: '3002' })
    readOpsSettings(same, { port: 3002 })
    expect(() => same.done()).toThrow(/METRICS_PORT must differ from PORT \(both 3002\)/)
    const bad = createEnvReader({ METRICS_PORT: 'metrics', READY_CACHE_MS: '-1' })
    readOpsSettings(bad, { port: 3002 })
    expect(() => bad.done()).toThrow(
      /READY_CACHE_MS must be an integer >= 0.*METRICS_PORT must be an integer/,
    )
  })
})
