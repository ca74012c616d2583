import { fail, notChecked, pass, shown, type Verdict } from './conformance-report'
import { OUTBOUND_REFUSAL, type ProviderContext, type QueryRun } from './provider-conformance-context'
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

/** Interface A's rules on the three delivery mechanisms. */
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
]
