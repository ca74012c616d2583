import { verifyCallback } from '@pf/signing'
import { fail, notChecked, pass, shown, type Verdict } from './conformance-report'
import type { HeardRequest } from './conformance-listener'
import { OUTBOUND_REFUSAL, type ProviderContext, type QueryRun } from './provider-conformance-context'
import { errorShapeProblem, type ProviderRule } from './provider-request-rules'

type Body = Record<string, unknown>
const isCount = (value: unknown) => Number.isInteger(value) && (value as number) >= 0
const bodyOf = (run: QueryRun) => (run.answer.body ?? {}) as Body
const answerText = ({ answer }: QueryRun) => `${answer.status} ${shown(answer.body ?? answer.text)}`
const json = (request: HeardRequest): unknown => {
  try {
    return JSON.parse(request.raw.toString('utf8')) as unknown
  } catch {
    return undefined
  }
}

/** The rules below need an envelope the provider accepts: not checked when it refuses the suite's address. */
function accepted(check: (context: ProviderContext) => Promise<Verdict>) {
  return async (context: ProviderContext) => {
    const refused = await context.callbackRefused()
    return refused ? notChecked(refused) : check(context)
  }
}

/** Why an answer is not the inline shape: 200 `{queryId, recordCount, executionTimeMs, results}`. */
function inlineProblem(run: QueryRun): Verdict {
  const body = bodyOf(run)
  const expected = `200 {queryId, recordCount, executionTimeMs, results} with ${run.queryId}`
  if (run.answer.status !== 200 || body.queryId !== run.queryId) return fail(expected, answerText(run))
  if (!isCount(body.recordCount) || !isCount(body.executionTimeMs))
    return fail('integer recordCount and executionTimeMs', answerText(run))
  if (!Array.isArray(body.results)) return fail('results, an array (inline delivery)', answerText(run))
  if (body.results.length !== body.recordCount)
    return fail(`recordCount ${String(body.recordCount)} results`, `${body.results.length}`)
  return pass()
}

/** The answer of a delivery other than inline: 200 `{…, delivery: {mechanism, reference}}`. */
function deliveredProblem(run: QueryRun, mechanism: string, reference: string): Verdict | undefined {
  const body = bodyOf(run)
  const delivery = (body.delivery ?? {}) as Body
  if (run.answer.status !== 200 || body.queryId !== run.queryId || !isCount(body.recordCount))
    return fail(`200 {queryId, recordCount, executionTimeMs, delivery} with ${run.queryId}`, answerText(run))
  if (delivery.mechanism !== mechanism || delivery.reference !== reference)
    return fail(`delivery ${shown({ mechanism, reference })}`, shown(body.delivery))
  return undefined
}

/** A pf_s3_sync query: the answer's reference and the object at `<s3KeyPrefix><queryId>.json`. */
async function s3Delivery(
  context: ProviderContext,
  name: string,
  spec: { s3Bucket: string | null; s3KeyPrefix: string | null },
  bucket: string,
  prefix: string,
): Promise<Verdict> {
  const queryId = context.newId(name)
  const key = `${prefix}${queryId}.json`
  const run = await context.run(
    queryId,
    context.envelope(queryId, { delivery: { mechanism: 'pf_s3_sync', ...spec } }),
  )
  const error = bodyOf(run).error
  if (run.answer.status === 400 && typeof error === 'string' && error.includes(bucket))
    return notChecked(
      `the provider refuses bucket ${bucket} (${shown(error)}): allow it (the reference provider: S3_ALLOWED_BUCKETS) or name another with --bucket`,
    )
  const problem = deliveredProblem(run, 'pf_s3_sync', `s3://${bucket}/${key}`)
  if (problem) return { ...problem, detail: `${name}: ${problem.detail}` }
  const object = await context.s3?.read(bucket, key)
  if (!object) return fail(`${name}: an object at s3://${bucket}/${key}`, 'none')
  if (!/^application\/json\b/i.test(object.contentType))
    return fail(`${name}: content type application/json`, shown(object.contentType || 'none'))
  let records: unknown
  try {
    records = JSON.parse(object.text) as unknown
  } catch {
    return fail(`${name}: the results' JSON`, shown(object.text))
  }
  const count = bodyOf(run).recordCount
  if (!Array.isArray(records) || records.length !== count)
    return fail(`${name}: an array of recordCount ${String(count)} records`, shown(records))
  return pass()
}

function withS3(check: (context: ProviderContext) => Promise<Verdict>) {
  return accepted((context) => (context.s3 ? check(context) : Promise.resolve(notChecked(context.s3Missing))))
}

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

/** Interface A's rules on deliveries and the status callback. */
export const PROVIDER_DELIVERY_RULES: ProviderRule[] = [
  {
    rule: 'inline-when-delivery-absent',
    title: 'no delivery: inline, 200 {queryId, recordCount, executionTimeMs, results}',
    check: accepted(async (context) => inlineProblem(await context.baseline())),
  },
  {
    rule: 'inline-when-mechanism-null',
    title: 'delivery.mechanism null: inline',
    check: accepted(async (context) => {
      const queryId = context.newId('mechanism-null')
      return inlineProblem(
        await context.run(queryId, context.envelope(queryId, { delivery: { mechanism: null } })),
      )
    }),
  },
  {
    rule: 'inline-when-mechanism-unknown',
    title: 'an unknown delivery.mechanism: inline',
    check: accepted(async (context) => {
      const queryId = context.newId('mechanism-unknown')
      const delivery = { mechanism: 'pf-conformance-unknown', url: `${context.base}/results/${queryId}` }
      return inlineProblem(await context.run(queryId, context.envelope(queryId, { delivery })))
    }),
  },
  {
    rule: 's3-named-bucket',
    title: 'pf_s3_sync writes <s3KeyPrefix><queryId>.json, application/json, to the named bucket',
    check: withS3((context) =>
      s3Delivery(
        context,
        'named-bucket',
        { s3Bucket: context.bucket, s3KeyPrefix: 'pf-conformance/' },
        context.bucket,
        'pf-conformance/',
      ),
    ),
  },
  {
    rule: 's3-default-bucket',
    title: 'pf_s3_sync with s3Bucket null or empty writes to the default bucket; a null prefix is empty',
    check: withS3(async (context) => {
      const nulls = await s3Delivery(
        context,
        'bucket-null',
        { s3Bucket: null, s3KeyPrefix: null },
        context.defaultBucket,
        '',
      )
      if (nulls.outcome !== 'PASS') return nulls
      return s3Delivery(context, 'bucket-empty', { s3Bucket: '', s3KeyPrefix: '' }, context.defaultBucket, '')
    }),
  },
  {
    rule: 'webhook-delivery-unsigned-json',
    title: 'webhook delivery POSTs the results as application/json to delivery.url, no X-PF-Signature',
    check: accepted(async (context) => {
      const run = await context.webhookRun()
      const post = context.listener.heard.find((h) => h.route === 'results' && h.id === run.queryId)
      const error = bodyOf(run).error
      if (!post && run.answer.status === 500 && typeof error === 'string' && OUTBOUND_REFUSAL.test(error))
        return notChecked(
          `the provider made no delivery to ${context.base}/results/… (500 ${shown(error)}): let it deliver there (the reference provider: OUTBOUND_ALLOW_PRIVATE=true, for tests only), or give --callback-url an address it may reach`,
        )
      const problem = deliveredProblem(run, 'webhook', '')
      if (problem) return problem
      if (!post) return fail(`a POST to ${context.base}/results/${run.queryId}`, 'none')
      if (post.method !== 'POST') return fail('POST', post.method)
      if (!/^application\/json\b/i.test(String(post.headers['content-type'] ?? '')))
        return fail('Content-Type application/json', shown(post.headers['content-type'] ?? 'none'))
      if (post.headers['x-pf-signature'] !== undefined)
        return fail('no X-PF-Signature header', shown(post.headers['x-pf-signature']))
      const records = json(post)
      if (!Array.isArray(records) || records.length !== bodyOf(run).recordCount)
        return fail(`a JSON array of recordCount ${String(bodyOf(run).recordCount)} records`, shown(records))
      return pass()
    }),
  },
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
