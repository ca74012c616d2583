import { connect } from 'node:tls'
import { isIP } from 'node:net'
import { WEBHOOK_EVENT_KINDS, WEBHOOK_RESPONSE_BUDGET_MS } from '@pf/schemas'
import { signWebhook } from '@pf/signing'
import { fail, notChecked, pass, shown, type Verdict } from './conformance-report'
import type { conformanceEvents } from './conformance-events'
import { unusualJson } from './conformance-events'
import type { RawAnswer } from './post-raw'

export interface ReceiverConformanceOptions {
  /** The receiver's registered URL: `https://you.example/webhooks/pf`. */
  url: string
  /** The application's webhook secret. */
  secret: string
  /** PEM of the CA that signed an https receiver's certificate, when it is not a public one. */
  ca?: string | Buffer
}

export interface ReceiverContext {
  send(body: string, signature: string | null): Promise<RawAnswer>
  event: ReturnType<typeof conformanceEvents>
  secret: string
  options: ReceiverConformanceOptions
  /** The answers to a wrong and a missing signature, once. */
  unauthorized(): Promise<{ wrong: RawAnswer; missing: RawAnswer }>
}

export interface ReceiverRule {
  rule: string
  title: string
  check(context: ReceiverContext): Promise<Verdict>
}

const got = (answer: RawAnswer) => `${answer.status} ${shown(answer.text)}`
const is2xx = (answer: RawAnswer) => answer.status >= 200 && answer.status < 300
const signed = (context: ReceiverContext, body: string) =>
  context.send(body, signWebhook(context.secret, body))
const expect2xx = async (answer: Promise<RawAnswer>) => {
  const a = await answer
  return is2xx(a) ? pass() : fail('2xx', got(a))
}

const expect401 = (answer: RawAnswer) => (answer.status === 401 ? pass() : fail('401', got(answer)))

/** 40 days ago: older than any receiver's replay window, still within what the platform may resend by hand. */
const STALE_MS = 40 * 24 * 3600 * 1000

/** Why TLS below 1.2 is refused, or is not: a handshake offering at most TLS 1.1. */
function tlsBelow12(url: URL, ca: ReceiverConformanceOptions['ca']): Promise<Verdict> {
  const host = url.hostname.replace(/^\[|\]$/g, '')
  return new Promise((resolve) => {
    const socket = connect({
      host,
      port: Number(url.port || 443),
      ...(isIP(host) ? {} : { servername: host }),
      minVersion: 'TLSv1',
      maxVersion: 'TLSv1.1',
      // SECLEVEL=0 lets this OpenSSL offer TLS 1.0 and 1.1 at all, so a refusal comes from the receiver.
      ciphers: 'DEFAULT@SECLEVEL=0',
      rejectUnauthorized: false,
      ...(ca ? { ca } : {}),
    })
    socket.setTimeout(WEBHOOK_RESPONSE_BUDGET_MS, () => socket.destroy(new Error('no handshake within 5 s')))
    socket.once('secureConnect', () => {
      const protocol = socket.getProtocol()
      socket.destroy()
      resolve(fail('a TLS 1.1 handshake refused', `${protocol ?? 'it'} accepted`))
    })
    socket.once('error', (error: Error & { code?: string }) => {
      if (/no protocols available/i.test(error.message))
        resolve(
          notChecked(
            "this Node's OpenSSL cannot offer TLS 1.1 (so nothing shows whether the receiver would take it)",
          ),
        )
      else if (
        ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH'].includes(error.code ?? '') ||
        /no handshake/.test(error.message)
      )
        resolve(fail('a TLS handshake to refuse', `no connection: ${error.code ?? error.message}`))
      else resolve(pass())
    })
  })
}

/** Interface B's rules a receiver shows from outside. */
export const RECEIVER_RULES: ReceiverRule[] = [
  ...WEBHOOK_EVENT_KINDS.map((kind): ReceiverRule => ({
    rule: `signed-${kind}`,
    title: `a correctly signed ${kind} is answered 2xx within 5 s`,
    check: (context) => expect2xx(signed(context, JSON.stringify(context.event(kind)))),
  })),
  {
    rule: 'unusual-body-2xx',
    title:
      'a signed body with unusual whitespace, escapes and key order is answered 2xx (verified over raw bytes)',
    check: (context) => expect2xx(signed(context, unusualJson(context.event('session.created')))),
  },
  {
    rule: 'signature-wrong-401',
    title: 'a wrong X-PF-Signature is answered 401',
    check: async (context) => expect401((await context.unauthorized()).wrong),
  },
  {
    rule: 'signature-missing-401',
    title: 'a missing X-PF-Signature is answered 401',
    check: async (context) => expect401((await context.unauthorized()).missing),
  },
  {
    rule: 'unauthorized-is-json',
    title: 'a 401 is application/json {error}',
    async check(context) {
      for (const answer of Object.values(await context.unauthorized())) {
        if (answer.status !== 401) continue
        if (!/^application\/json\b/i.test(answer.contentType))
          return fail('Content-Type application/json', shown(answer.contentType || 'none'))
        let body: unknown
        try {
          body = JSON.parse(answer.text) as unknown
        } catch {
          return fail('401 {error}', got(answer))
        }
        const keys = body && typeof body === 'object' ? Object.keys(body) : []
        if (keys.join() !== 'error' || typeof (body as { error: unknown }).error !== 'string')
          return fail('401 {error}', got(answer))
      }
      return pass()
    },
  },
  {
    rule: 'unknown-kind-2xx',
    title: 'a correctly signed event of an unknown kind is answered 2xx (ignored with a warning)',
    check: (context) => expect2xx(signed(context, JSON.stringify(context.event('pf-conformance.unknown')))),
  },
  {
    rule: 'stale-event-2xx',
    title: 'a correctly signed stale event is answered 2xx (kept aside, never refused)',
    check: (context) =>
      expect2xx(
        signed(
          context,
          JSON.stringify(
            context.event('session.ended', { timestamp: new Date(Date.now() - STALE_MS).toISOString() }),
          ),
        ),
      ),
  },
  {
    rule: 'tls-below-1.2-refused',
    title: 'an https receiver refuses TLS below 1.2',
    check: async ({ options }) => {
      const url = new URL(options.url)
      return url.protocol === 'https:'
        ? tlsBelow12(url, options.ca)
        : notChecked(
            'the URL is http: the platform sends only to HTTPS (TLS 1.2 or newer); run against the https URL it uses',
          )
    },
  },
  {
    rule: 'duplicate-single-effect',
    title: 'a duplicate webhookId has a single effect',
    check: () =>
      Promise.resolve(
        notChecked(
          "cannot be seen from outside: a duplicate is answered 2xx either way; test your handlers' effects",
        ),
      ),
  },
  {
    rule: 'asynchronous-processing',
    title: 'events are processed asynchronously, after the 2xx',
    check: () => Promise.resolve(notChecked('cannot be seen from outside')),
  },
  {
    rule: 'signature-constant-time',
    title: 'the signature is compared in constant time',
    check: () => Promise.resolve(notChecked('cannot be observed from outside: review the code')),
  },
]
