import { verifyCallback } from '@pf/signing'
import { fail, notChecked, pass, shown, type Verdict } from './conformance-report'
import type { HeardRequest } from './conformance-listener'
import type { ProviderContext, QueryRun } from './provider-conformance-context'
import { errorShapeProblem } from './provider-request-rules'
import {
  accepted,
  answerText,
  bodyOf,
  inlineProblem,
  isCount,
  json,
  type Body,
  type ProviderRule,
} from './provider-rule-helpers'

/** The baseline's callback, or why the callback rules fail without one. */
async function baselineCallback(context: ProviderContext) {
  const run = await context.baseline()
  if (run.answer.status !== 200) return { run, verdict: fail('200 to a plain inline query', answerText(run)) }
  if (!run.callback)
    return {
      run,
      verdict: fail(
        `a callback to ${context.base}/callback/…`,
        'none (if the provider refuses to post to the suite, let it: the reference provider needs OUTBOUND_ALLOW_PRIVATE=true for a private address)',
      ),
    }
  return { run, callback: run.callback }
}

const callbackRule = (check: (context: ProviderContext, run: QueryRun, callback: HeardRequest) => Verdict) =>
  accepted(async (context) => {
    const { run, callback, verdict } = await baselineCallback(context)
    return callback ? check(context, run, callback) : (verdict as Verdict)
  })

/** The fields of a JSON value that are null, by path. */
const nullFields = (value: unknown, path = ''): string[] =>
  value && typeof value === 'object'
    ? Object.entries(value).flatMap(([key, inner]) =>
        inner === null ? [`${path}${key}`] : nullFields(inner, `${path}${key}.`),
      )
    : []

/** Interface A's rules on the status callback and the failed path. */
export const PROVIDER_CALLBACK_RULES: ProviderRule[] = [
  {
    rule: 'callback-before-answer',
    title: 'the callback arrives before the answer',
    check: callbackRule((_context, run, callback) =>
      callback.seq < run.answer.seq ? pass() : fail('the callback before the answer', 'it after the answer'),
    ),
  },
  {
    rule: 'callback-signed',
    title:
      'the callback carries X-PF-Signature: sha256=<hex HMAC-SHA256 of its raw bytes, keyed by callbackToken>',
    check: callbackRule((context, _run, callback) => {
      const header = callback.headers['x-pf-signature']
      return verifyCallback(
        context.callbackToken,
        callback.raw,
        typeof header === 'string' ? header : undefined,
      )
        ? pass()
        : fail('sha256=<hex> over the bytes received', shown(header ?? 'no X-PF-Signature header'))
    }),
  },
  {
    rule: 'callback-omits-nulls',
    title: 'the callback omits null fields (delivered and failed)',
    check: accepted(async (context) => {
      const { callback, verdict } = await baselineCallback(context)
      if (!callback) return verdict as Verdict
      const failed = (await context.failedRun()).callback
      for (const request of failed ? [callback, failed] : [callback]) {
        const nulls = nullFields(json(request))
        if (nulls.length > 0) return fail('no null fields', nulls.map((f) => `${f}: null`).join(', '))
      }
      return pass()
    }),
  },
  {
    rule: 'callback-delivered-fields',
    title:
      'the callback is JSON {queryId, status: delivered, recordCount, executionTimeMs, delivery: {mechanism}}',
    check: accepted(async (context) => {
      const { callback, run, verdict } = await baselineCallback(context)
      if (!callback) return verdict as Verdict
      const webhook = await context.webhookRun()
      for (const [heard, mechanism] of [
        [callback, 'inline'],
        ...(webhook.answer.status === 200 && webhook.callback
          ? [[webhook.callback, 'webhook'] as const]
          : []),
      ] as const) {
        if (!/^application\/json\b/i.test(String(heard.headers['content-type'] ?? '')))
          return fail('Content-Type application/json', shown(heard.headers['content-type'] ?? 'none'))
        const body = (json(heard) ?? {}) as Body
        const queryId = heard === callback ? run.queryId : webhook.queryId
        if (
          body.queryId !== queryId ||
          body.status !== 'delivered' ||
          !isCount(body.recordCount) ||
          !isCount(body.executionTimeMs) ||
          (body.delivery as Body | undefined)?.mechanism !== mechanism
        )
          return fail(
            `{queryId: ${queryId}, status: delivered, recordCount, executionTimeMs, delivery: {mechanism: ${mechanism}}}`,
            shown(body),
          )
      }
      return pass()
    }),
  },
  {
    rule: 'record-count-agrees',
    title: 'recordCount is the same in the answer and the callback',
    check: callbackRule((_context, run, callback) => {
      const answered = bodyOf(run).recordCount
      const called = ((json(callback) ?? {}) as Body).recordCount
      return answered === called
        ? pass()
        : fail(`the callback's recordCount ${shown(answered)}`, shown(called))
    }),
  },
  {
    rule: 'failed-delivery',
    title: 'a delivery that fails: callback {status: failed, recordCount: 0, error} and 500 {error, queryId}',
    check: accepted(async (context) => {
      const run = await context.failedRun()
      const problem = errorShapeProblem(run.answer, 500, ['error', 'queryId'], run.queryId)
      if (problem) return { outcome: 'FAIL', detail: problem }
      if (!run.callback) return fail('a failed callback', 'none')
      const body = (json(run.callback) ?? {}) as Body
      if (
        body.queryId !== run.queryId ||
        body.status !== 'failed' ||
        body.recordCount !== 0 ||
        typeof body.error !== 'string'
      )
        return fail(`{queryId: ${run.queryId}, status: failed, recordCount: 0, error}`, shown(body))
      return pass()
    }),
  },
  {
    rule: 'callback-500-ignored',
    title: 'a callback the platform answers 500 does not change the answer',
    check: accepted(async (context) => {
      const queryId = context.newId('callback-500')
      return inlineProblem(
        await context.run(
          queryId,
          context.envelope(queryId, { delivery: { mechanism: 'inline' } }, 'callback-500'),
          'callback-500',
        ),
      )
    }),
  },
  {
    rule: 'callback-refused-ignored',
    title: 'a callback the platform refuses (connection closed) does not change the answer',
    check: accepted(async (context) => {
      const queryId = context.newId('callback-drop')
      return inlineProblem(
        await context.run(
          queryId,
          context.envelope(queryId, { delivery: { mechanism: 'inline' } }, 'callback-drop'),
          'callback-drop',
        ),
      )
    }),
  },
  {
    rule: 'api-key-constant-time',
    title: 'the API key is compared in constant time',
    check: () => Promise.resolve(notChecked('cannot be observed from outside: review the code')),
  },
  {
    rule: 'logs-without-secrets',
    title: 'what is logged (failed callbacks; never API keys or callback tokens)',
    check: () => Promise.resolve(notChecked("cannot be observed from outside: read the provider's logs")),
  },
]
