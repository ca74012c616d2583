import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import selfsigned from 'selfsigned'
import { createCleanup } from '@pf/testkit'
import { RECEIVER_RULES, runReceiverConformance, type ConformanceReport } from '@pf/testkit/platform'
import { listening } from '../src/lib/listening'
import { createWrongReceiver } from './fixtures/wrong-receiver'

// Issue 37: a receiver that breaks one of interface B's observable rules fails the suite on that rule. One
// small HTTPS receiver, right by default, started once; each test switches which rule it breaks.
const cleanup = createCleanup(afterAll)
const SECRET = 'whsec_pf_conformance_test'
let url: string
let server: Server
let receiver: ReturnType<typeof createWrongReceiver>
let pems: { cert: string; private: string }

beforeAll(async () => {
  pems = await selfsigned.generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  })
  receiver = createWrongReceiver(SECRET)
  server = cleanup.add(
    await listening(
      createServer({ cert: pems.cert, key: pems.private }, receiver.app).listen(0, '127.0.0.1'),
    ),
    (s) => {
      s.closeAllConnections()
      return new Promise((resolve) => s.close(resolve))
    },
  )
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/pf`
})

const run = (mutation: string): Promise<ConformanceReport> => {
  receiver.state.mutation = mutation
  // TLS 1.0 and 1.1 offered too, only while that rule is broken.
  server.setSecureContext({
    cert: pems.cert,
    key: pems.private,
    ...(mutation === 'tls-below-1.2-refused' ? { minVersion: 'TLSv1', ciphers: 'DEFAULT@SECLEVEL=0' } : {}),
  })
  return runReceiverConformance({ url, secret: SECRET, ca: pems.cert })
}
const outcomes = (report: ConformanceReport, outcome: string) =>
  report.results.filter((r) => r.outcome === outcome).map((r) => r.rule)
const UNOBSERVABLE = ['duplicate-single-effect', 'asynchronous-processing', 'signature-constant-time']

// A receiver failing every session.created fails the unusual body too (a session.created), and one failing every
// session.ended the stale event (a session.ended): those rules are named as well.
const MUTATIONS: [rule: string, how: string, also?: string[]][] = [
  ['signed-session.created', 'its handler fails with 500', ['unusual-body-2xx']],
  ['signed-session.extended', 'its handler fails with 500'],
  ['signed-session.ended', 'its handler fails with 500', ['stale-event-2xx']],
  ['signed-purchase.completed', 'its handler fails with 500'],
  ['signed-purchase.failed', 'its handler fails with 500'],
  ['unusual-body-2xx', 're-serialises the JSON before verifying'],
  ['signature-wrong-401', 'takes any signature'],
  ['signature-missing-401', 'takes a request without one'],
  ['unauthorized-is-json', 'answers 401 in text/plain'],
  ['unknown-kind-2xx', 'answers 400 to an unknown kind'],
  ['stale-event-2xx', 'answers 400 to a day-old event'],
  ['tls-below-1.2-refused', 'accepts TLS 1.0 and 1.1'],
]

describe('pf-sim conformance receiver: the rules of interface B seen from outside', () => {
  it('a receiver that keeps every rule passes every one; duplicates, async processing and constant time are NOT CHECKED', async () => {
    const report = await run('none')
    expect(outcomes(report, 'FAIL')).toEqual([])
    expect(outcomes(report, 'NOT CHECKED')).toEqual(UNOBSERVABLE)
    expect(report.passed).toBe(true)
  })

  it('the mutations cover every rule the suite can observe', () => {
    const observable = RECEIVER_RULES.map((r) => r.rule).filter((rule) => !UNOBSERVABLE.includes(rule))
    expect(MUTATIONS.map(([rule]) => rule).sort()).toEqual(observable.sort())
  })

  it.each(MUTATIONS)('a receiver breaking %s (%s) fails exactly that rule', async (rule, _how, also = []) => {
    const report = await run(rule)
    expect(outcomes(report, 'FAIL')).toEqual([rule, ...also])
    expect(report.results.find((r) => r.rule === rule)?.detail).toMatch(/\S/)
  })
})
