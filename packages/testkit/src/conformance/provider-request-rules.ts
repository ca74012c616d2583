import { fail, notChecked, pass, shown, type Verdict } from './conformance-report'
import type { Answer, ProviderContext } from './provider-conformance-context'
import type { ProviderRule } from './provider-rule-helpers'

const got = (answer: Answer) => `${answer.status} ${shown(answer.body ?? answer.text)}`

/** Why an answer is not `status` with a JSON body of exactly `keys` (strings; `queryId` equal to the one sent). */
export function errorShapeProblem(
  answer: Answer,
  status: number,
  keys: string[],
  queryId?: string,
): string | undefined {
  const expected = `${status} {${keys.join(', ')}}`
  if (answer.status !== status) return `expected ${expected}, got ${got(answer)}`
  const body = answer.body as Record<string, unknown> | undefined
  const actual =
    body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body).sort() : undefined
  if (!actual || actual.join() !== [...keys].sort().join() || typeof body?.error !== 'string')
    return `expected ${expected}, got ${got(answer)}`
  if (keys.includes('queryId') && body?.queryId !== queryId)
    return `expected queryId ${shown(queryId)} echoed, got ${shown(body?.queryId)}`
  return undefined
}

const verdictOf = (problem: string | undefined): Verdict =>
  problem ? { outcome: 'FAIL', detail: problem } : pass()

/** Envelopes that must be refused with 400 `{error}`, each variant's callback (when it has one) never to come. */
async function refusedEnvelopes(
  context: ProviderContext,
  rule: string,
  variants: [string, (queryId: string) => Record<string, unknown>][],
): Promise<Verdict> {
  const ids: string[] = []
  try {
    for (const [name, make] of variants) {
      const queryId = context.newId(name)
      ids.push(queryId)
      const problem = errorShapeProblem(await context.post(make(queryId)), 400, ['error'])
      if (problem) return { outcome: 'FAIL', detail: `${name}: ${problem}` }
    }
    return pass()
  } finally {
    context.quiet.push({ rule, ids })
  }
}

const without = (envelope: Record<string, unknown>, field: string) =>
  Object.fromEntries(Object.entries(envelope).filter(([key]) => key !== field))

/** Interface A's rules on requests refused before any work, and on `/health`. */
export const PROVIDER_REQUEST_RULES: ProviderRule[] = [
  {
    rule: 'health-needs-no-key',
    title: '/health answers 2xx without X-PF-Api-Key',
    async check(context) {
      const answer = await context.get('/health')
      return answer.status >= 200 && answer.status < 300 ? pass() : fail('2xx', got(answer))
    },
  },
  {
    rule: 'api-key-missing-401',
    title: 'a query without X-PF-Api-Key is answered 401, no callback',
    async check(context) {
      const queryId = context.newId('no-key')
      context.quiet.push({ rule: 'api-key-missing-401', ids: [queryId] })
      const answer = await context.post(context.envelope(queryId), null)
      return answer.status === 401 ? pass() : fail('401', got(answer))
    },
  },
  {
    rule: 'api-key-wrong-401',
    title: 'a query with a wrong X-PF-Api-Key is answered 401, no callback',
    async check(context) {
      const queryId = context.newId('wrong-key')
      context.quiet.push({ rule: 'api-key-wrong-401', ids: [queryId] })
      const answer = await context.post(context.envelope(queryId), `pf-conformance-wrong-${queryId}`)
      return answer.status === 401 ? pass() : fail('401', got(answer))
    },
  },
  {
    rule: 'unauthorized-is-json',
    title: 'a 401 is application/json {error}',
    async check(context) {
      const answer = await context.post(context.envelope(context.newId('401-json')), 'pf-conformance-wrong')
      if (answer.status !== 401) return notChecked(`the provider answered ${answer.status}, not 401`)
      if (!/^application\/json\b/i.test(answer.contentType))
        return fail('Content-Type application/json', shown(answer.contentType || 'none'))
      return verdictOf(errorShapeProblem(answer, 401, ['error']))
    },
  },
  {
    rule: 'envelope-without-query-id-400',
    title: 'an envelope whose queryId is missing or null is answered 400 {error}, no callback',
    check: (context) =>
      refusedEnvelopes(context, 'envelope-without-query-id-400', [
        ['queryId missing', (id) => without(context.envelope(id), 'queryId')],
        ['queryId null', (id) => ({ ...context.envelope(id), queryId: null })],
      ]),
  },
  {
    rule: 'envelope-without-callback-url-400',
    title: 'an envelope whose callbackUrl is missing or null is answered 400 {error}',
    check: (context) =>
      refusedEnvelopes(context, 'envelope-without-callback-url-400', [
        ['callbackUrl missing', (id) => without(context.envelope(id), 'callbackUrl')],
        ['callbackUrl null', (id) => ({ ...context.envelope(id), callbackUrl: null })],
      ]),
  },
  {
    rule: 'sanctions-without-name-400',
    title:
      'sanctions without parameters.name (missing or empty) is answered 400 {error, queryId}, no callback',
    async check(context) {
      if (!context.isSanctions)
        return notChecked(`a rule of the sanctions endpoint only: run again with --endpoint sanctions`)
      const refused = await context.callbackRefused()
      if (refused) return notChecked(refused)
      const ids: string[] = []
      context.quiet.push({ rule: 'sanctions-without-name-400', ids })
      const rest = without(context.parameters, 'name')
      for (const [name, parameters] of [
        ['name missing', rest],
        ['name empty', { ...rest, name: '' }],
      ] as const) {
        const queryId = context.newId(name)
        ids.push(queryId)
        const answer = await context.post(context.envelope(queryId, { parameters }))
        const problem = errorShapeProblem(answer, 400, ['error', 'queryId'], queryId)
        if (problem) return { outcome: 'FAIL', detail: `${name}: ${problem}` }
      }
      return pass()
    },
  },
]
