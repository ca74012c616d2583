import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createCleanup, freePort } from '@pf/testkit'
import { PROVIDER_RULES, runProviderConformance, type ConformanceReport } from '@pf/testkit/platform'
import { listening } from '../src/lib/listening'
import { createWrongProvider } from './fixtures/wrong-provider'

// Issue 37, "Done when": a provider that breaks any one rule fails the suite on that rule. One small provider,
// right by default, started once; each test switches which rule it breaks (its `state.mutation`).
const cleanup = createCleanup(afterAll)
const API_KEY = 'pf-conformance-test-key'
let url: string
let s3Endpoint: string
let provider: ReturnType<typeof createWrongProvider>

beforeAll(async () => {
  s3Endpoint = `http://127.0.0.1:${await freePort()}`
  provider = cleanup.add(
    createWrongProvider({ apiKey: API_KEY, s3Endpoint, defaultBucket: 'pf-deliveries' }),
    (p) => p.close(),
  )
  const server = cleanup.add(await listening(provider.app.listen(0, '127.0.0.1')), (s: Server) => {
    s.closeAllConnections()
    return new Promise((resolve) => s.close(resolve))
  })
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

/** The sanctions endpoint, so that every rule applies. */
const run = (mutation: string): Promise<ConformanceReport> => {
  provider.state.mutation = mutation
  return runProviderConformance({
    url,
    apiKey: API_KEY,
    endpoint: 'sanctions',
    parameters: { name: 'acme' },
    s3Endpoint,
  })
}
const outcomes = (report: ConformanceReport, outcome: string) =>
  report.results.filter((r) => r.outcome === outcome).map((r) => r.rule)

const MUTATIONS: [rule: string, how: string][] = [
  ['health-needs-no-key', '/health wants the API key'],
  ['api-key-missing-401', 'a query without a key is run'],
  ['api-key-wrong-401', 'any key is taken'],
  ['unauthorized-is-json', 'the 401 is text/plain'],
  ['envelope-without-query-id-400', 'a missing queryId is made up'],
  ['envelope-without-callback-url-400', 'a missing callbackUrl is 422'],
  ['sanctions-without-name-400', 'the 400 has no queryId'],
  ['inline-when-delivery-absent', 'without delivery the records come as `records`'],
  ['inline-when-mechanism-null', 'a null mechanism is 400'],
  ['inline-when-mechanism-unknown', 'an unknown mechanism is 400'],
  ['s3-named-bucket', 'the named bucket is ignored'],
  ['s3-default-bucket', 'a null prefix is written as "null"'],
  ['webhook-delivery-unsigned-json', 'the webhook delivery carries X-PF-Signature'],
  ['callback-before-answer', 'the callback is posted after the answer'],
  ['callback-signed', 'the signature is over other bytes than those sent'],
  ['callback-omits-nulls', 'a delivered callback carries error: null'],
  ['callback-delivered-fields', 'the callback says success'],
  ['record-count-agrees', "the callback's recordCount is one more"],
  ['failed-delivery', 'a failed delivery is answered 502'],
  ['callback-500-ignored', 'a callback answered 500 makes the answer 502'],
  ['callback-refused-ignored', 'a refused callback makes the answer 500'],
]

describe('pf-sim conformance provider: the rules of interface A', () => {
  it('a provider that keeps every rule passes every one; constant time and logs are NOT CHECKED, never passed', async () => {
    const report = await run('none')
    expect(outcomes(report, 'FAIL')).toEqual([])
    expect(outcomes(report, 'NOT CHECKED')).toEqual(['api-key-constant-time', 'logs-without-secrets'])
    expect(report.passed).toBe(true)
    for (const rule of PROVIDER_RULES) expect(report.results.map((r) => r.rule)).toContain(rule.rule)
  })

  it('the mutations cover every rule the suite can observe', () => {
    const observable = PROVIDER_RULES.map((r) => r.rule).filter(
      (rule) => !['api-key-constant-time', 'logs-without-secrets'].includes(rule),
    )
    expect(MUTATIONS.map(([rule]) => rule).sort()).toEqual(observable.sort())
  })

  it.each(MUTATIONS)('a provider breaking %s (%s) fails exactly that rule', async (rule) => {
    const report = await run(rule)
    expect(outcomes(report, 'FAIL')).toEqual([rule])
    expect(report.passed).toBe(false)
    const failed = report.results.find((r) => r.rule === rule)
    expect(failed?.detail).toMatch(/\S/)
  })

  it("a provider refusing the suite's callback address: every rule that needs an accepted query is NOT CHECKED, naming the setting, none FAIL", async () => {
    const report = await run('outbound-callback')
    expect(outcomes(report, 'FAIL')).toEqual([])
    const notChecked = report.results.filter((r) => r.outcome === 'NOT CHECKED')
    expect(notChecked.map((r) => r.rule)).toEqual(
      expect.arrayContaining([
        'inline-when-delivery-absent',
        'callback-signed',
        's3-named-bucket',
        'failed-delivery',
      ]),
    )
    expect(report.results.find((r) => r.rule === 'callback-signed')?.detail).toMatch(
      /refused the suite's callback address http:\/\/127\.0\.0\.1:\d+ .*OUTBOUND_ALLOW_PRIVATE=true/,
    )
    expect(outcomes(report, 'PASS')).toEqual(
      expect.arrayContaining(['health-needs-no-key', 'api-key-wrong-401']),
    )
  })

  it('a provider refusing to deliver to the suite: the webhook rule is NOT CHECKED, naming the setting', async () => {
    const report = await run('outbound-delivery')
    expect(outcomes(report, 'FAIL')).toEqual([])
    expect(report.results.find((r) => r.rule === 'webhook-delivery-unsigned-json')).toMatchObject({
      outcome: 'NOT CHECKED',
      detail: expect.stringMatching(/made no delivery to .*OUTBOUND_ALLOW_PRIVATE=true/),
    })
  })
})
