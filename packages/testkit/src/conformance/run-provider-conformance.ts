import { describeFetchError } from '../platform/describe-fetch-error'
import { startConformanceListener } from './conformance-listener'
import type { ConformanceReport, RuleResult } from './conformance-report'
import { createProviderContext } from './provider-conformance-context'
import { PROVIDER_CALLBACK_RULES } from './provider-callback-rules'
import { PROVIDER_DELIVERY_RULES } from './provider-delivery-rules'
import { PROVIDER_REQUEST_RULES } from './provider-request-rules'
import { startSuiteS3, type SuiteS3 } from './suite-s3'

export interface ProviderConformanceOptions {
  /** The provider's base address: `http://127.0.0.1:3002`. */
  url: string
  apiKey: string
  /** An endpoint's name (`companies`: `/api/search/companies`) or its path (`/api/search/vehicles`). */
  endpoint: string
  /** The `parameters` of a query the endpoint runs (default `{}`; sanctions needs a `name`). */
  parameters?: Record<string, unknown>
  /**
   * Where the provider reaches the suite's listener (callbacks, webhook deliveries): `http://host:port`. The
   * listener binds that port on `bindHost`. Default: `http://127.0.0.1:<a free port>`.
   */
  callbackUrl?: string
  /**
   * Where the provider reaches the suite's S3 endpoint (its `S3_ENDPOINT`, keys `S3RVER`/`S3RVER`): the suite
   * serves s3rver on that port. Unset: the `pf_s3_sync` rules are NOT CHECKED.
   */
  s3Endpoint?: string
  /** The provider's default bucket (default `pf-deliveries`). */
  defaultBucket?: string
  /** The bucket a query names (default `pf-conformance`). */
  bucket?: string
  /** The address the listener and S3 endpoint bind (default 127.0.0.1; 0.0.0.0 for a provider in a container). */
  bindHost?: string
  /** How long a callback not in by the answer is waited for (default 2000 ms). */
  callbackWaitMs?: number
  /** Longest wait for one answer (default 30000 ms). */
  requestTimeoutMs?: number
}

/** Every interface-A rule, in the order they run and are reported. */
export const PROVIDER_RULES = [
  ...PROVIDER_REQUEST_RULES,
  ...PROVIDER_DELIVERY_RULES,
  ...PROVIDER_CALLBACK_RULES,
]

const portOf = (url: URL) => Number(url.port || (url.protocol === 'https:' ? 443 : 80))

/** The endpoint's path from a name or a path. */
export const endpointPath = (endpoint: string) =>
  endpoint.startsWith('/') ? endpoint : `/api/search/${encodeURIComponent(endpoint)}`

/**
 * Runs interface A's rules against a running provider, one result per rule: PASS, FAIL (what was expected, what
 * came) or NOT CHECKED (why). The suite brings its own listener and, with `s3Endpoint`, its own S3 endpoint;
 * its query ids start `pf-conformance-`.
 *
 * @example
 * const report = await runProviderConformance({ url, apiKey, endpoint: 'companies', s3Endpoint })
 * expect(report.results.filter((r) => r.outcome === 'FAIL')).toEqual([])
 */
export async function runProviderConformance(
  options: ProviderConformanceOptions,
): Promise<ConformanceReport> {
  const bindHost = options.bindHost ?? '127.0.0.1'
  const given = options.callbackUrl ? new URL(options.callbackUrl) : undefined
  const listener = await startConformanceListener(bindHost, given ? portOf(given) : 0)
  let s3: SuiteS3 | undefined
  const results: RuleResult[] = []
  try {
    const defaultBucket = options.defaultBucket ?? 'pf-deliveries'
    const bucket = options.bucket ?? 'pf-conformance'
    let s3Missing =
      'give --s3-endpoint URL: the suite serves S3 (s3rver) there; start the provider with S3_ENDPOINT=URL, ' +
      `AWS_ACCESS_KEY_ID=S3RVER, AWS_SECRET_ACCESS_KEY=S3RVER, and its default bucket as --default-bucket (${defaultBucket})`
    if (options.s3Endpoint) {
      try {
        s3 = await startSuiteS3(bindHost, portOf(new URL(options.s3Endpoint)), [defaultBucket, bucket])
      } catch (error) {
        const { code } = error as { code?: string }
        s3Missing =
          code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND'
            ? 'the suite serves S3 with s3rver, an optional peer of @pf/testkit: install it (npm install --save-dev s3rver)'
            : `the suite's S3 endpoint could not start on ${options.s3Endpoint}: ${describeFetchError(error)}`
      }
    }
    const context = createProviderContext({
      url: options.url,
      apiKey: options.apiKey,
      path: endpointPath(options.endpoint),
      parameters: options.parameters ?? {},
      base: given ? `${given.protocol}//${given.host}` : `http://127.0.0.1:${listener.port}`,
      listener,
      s3,
      s3Missing,
      defaultBucket,
      bucket,
      callbackWaitMs: options.callbackWaitMs ?? 2000,
      requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
    })
    for (const { rule, title, check } of PROVIDER_RULES) {
      try {
        results.push({ rule, title, ...(await check(context)) })
      } catch (error) {
        results.push({ rule, title, outcome: 'FAIL', detail: (error as Error).message })
      }
    }
    // Callbacks for refused queries were given every other rule's time to come.
    for (const { rule, ids } of context.quiet) {
      const late = listener.heard.find((h) => h.route === 'callback' && ids.includes(h.id))
      const result = results.find((r) => r.rule === rule)
      if (late && result && result.outcome === 'PASS')
        Object.assign(result, { outcome: 'FAIL', detail: `expected no callback, got one for ${late.id}` })
    }
  } finally {
    await s3?.stop()
    await listener.close()
  }
  return { passed: results.every((r) => r.outcome !== 'FAIL'), results }
}
