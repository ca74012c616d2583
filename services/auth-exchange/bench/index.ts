// `pnpm bench` for the identity exchange: provider round trips and throughput against the emulators at 5 ms.
import { createLogger, createMetricsRegistry, listen } from '@pf/service-kit'
import { createExchange } from '../src/create-exchange'
import { claims, configFor, startWorld, type Style } from '../test/support'

const LATENCY_MS = 5

async function pool<T>(items: T[], concurrency: number, run: (item: T) => Promise<void>) {
  let next = 0
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await run(items[next++] as T)
    }),
  )
}

async function bench(style: Style) {
  const world = await startWorld(style)
  const emulator = (world.keycloak ?? world.auth0)!
  emulator.setLatency(LATENCY_MS)
  const { app } = createExchange(configFor(world, 10_000), {
    logger: createLogger({ name: 'bench', level: 'silent' }),
    registry: createMetricsRegistry('bench'),
  })
  const server = await listen(app, { port: 0, host: '127.0.0.1' })
  const exchange = async (userId: string) => {
    const res = await fetch(`${server.url}/auth/exchange`, {
      method: 'POST',
      headers: { authorization: `Bearer ${world.issuer.mint(claims(userId))}` },
    })
    if (res.status !== 200) throw new Error(`exchange answered ${res.status}`)
    await res.arrayBuffer()
  }
  try {
    const users = Array.from({ length: 200 }, (_, i) => `bench-${i}`)
    let started = performance.now()
    await Promise.all(users.map(exchange)) // 200 concurrent first exchanges
    const coldRate = users.length / ((performance.now() - started) / 1000)
    const tokens = world.keycloak ? world.keycloak.adminTokensIssued() : world.auth0!.managementTokensIssued()

    const before = emulator.requests.length
    await exchange('single-cold')
    const coldTrips = emulator.requests.length - before
    const beforeWarm = emulator.requests.length
    await exchange('single-cold')
    const warmTrips = emulator.requests.length - beforeWarm

    // One exchange at a time: how long a user waits, cold (new user) and warm (known user), median of 20.
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
    const timed = async (userId: string) => {
      const t0 = performance.now()
      await exchange(userId)
      return performance.now() - t0
    }
    const coldMs: number[] = []
    const warmMs: number[] = []
    for (let i = 0; i < 20; i += 1) coldMs.push(await timed(`single-${i}`))
    for (let i = 0; i < 20; i += 1) warmMs.push(await timed(`single-${i}`))

    const warmRuns = Array.from({ length: 2000 }, (_, i) => users[i % users.length] as string)
    started = performance.now()
    await pool(warmRuns, 50, exchange)
    const warmRate = warmRuns.length / ((performance.now() - started) / 1000)
    return [
      { benchmark: `${style}: provider round trips, cold exchange (new user)`, value: coldTrips },
      { benchmark: `${style}: provider round trips, warm exchange (known user)`, value: warmTrips },
      {
        benchmark: `${style}: one cold exchange, ms (median of 20, ${LATENCY_MS} ms provider latency)`,
        value: Math.round(median(coldMs) * 10) / 10,
      },
      {
        benchmark: `${style}: one warm exchange, ms (median of 20, ${LATENCY_MS} ms provider latency)`,
        value: Math.round(median(warmMs) * 10) / 10,
      },
      {
        benchmark: `${style}: ${world.keycloak ? 'admin' : 'management'} token requests for 200 concurrent exchanges`,
        value: tokens,
      },
      {
        benchmark: `${style}: cold exchanges/s (200 at once, ${LATENCY_MS} ms provider latency)`,
        value: Math.round(coldRate),
      },
      {
        benchmark: `${style}: warm exchanges/s (2000, 50 at a time, ${LATENCY_MS} ms provider latency)`,
        value: Math.round(warmRate),
      },
    ]
  } finally {
    await server.close()
    await world.stop()
  }
}

async function main() {
  const rows = [...(await bench('realm-26')), ...(await bench('realm-24')), ...(await bench('tenant'))]
  console.log('\n@pf/auth-exchange benchmarks')
  console.table(rows)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
