import { HeadBucketCommand, type S3Client } from '@aws-sdk/client-s3'
import express, { Router, type Express } from 'express'
import type { Logger } from 'pino'
import type { Registry } from 'prom-client'
import {
  createErrorHandler,
  createMetricsRegistry,
  createOpsRouter,
  DEFAULT_OPS_SETTINGS,
  openApiRoute,
  type OpsSettings,
} from '@pf/service-kit'
import { createOutboundClient } from './create-outbound-client'
import { createQueryPorts } from './create-query-ports'
import { createS3Client } from './create-s3-client'
import { createSearchRouter } from './create-search-router'
import { endpointPath, type EndpointDefinition } from './define-endpoint'
import { PROVIDER_HTTP_STATUS } from './http-status'
import { mountedRoutes } from './mounted-routes'
import { buildProviderOpenApi } from './openapi-document'
import { createQueryMetrics } from './query-metrics'
import { requireApiKey } from './require-api-key'
import type { RouteDoc } from './route-doc'
import { DEFAULT_DELIVERY_TIMEOUT_MS } from './run-query'
import { streamedRoutes } from './streamed-routes'

export interface ProviderOptions {
  /** The search endpoints (`defineEndpoint`). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each endpoint has its own parameters and records
  endpoints: readonly EndpointDefinition<any, any>[]
  /** Keys accepted in `X-PF-Api-Key`, compared in constant time; several during a rotation. */
  apiKeys: readonly string[]
  logger: Logger
  /**
   * Object delivery (`pf_s3_sync`): the default bucket, the buckets a query may name (unset: any), and the
   * store: a `client`, or an S3-compatible `endpoint` (path-style) with `region` and `credentials` (unset:
   * the AWS SDK's own chain).
   */
  s3: {
    defaultBucket: string
    allowedBuckets?: readonly string[]
    client?: S3Client
    endpoint?: string
    region?: string
    credentials?: { accessKeyId: string; secretAccessKey: string }
  }
  /**
   * Callbacks and webhook deliveries: private targets (loopback, private, link-local) are refused unless
   * `allowPrivate` (local development and tests only; `allowPrivateSetting` names the setting in the log line
   * of that refusal); ports outside `allowedPorts` (unset: any) are refused; each request's time-out.
   */
  outbound?: {
    allowPrivate?: boolean
    allowPrivateSetting?: string
    allowedPorts?: readonly number[]
    timeoutMs?: number
  }
  /** The whole-delivery limit of `pf_s3_sync` and `webhook` deliveries (default ten minutes). */
  delivery?: { timeoutMs?: number }
  /** Largest request body (default 256 KiB): past it, 413 `{error}`. */
  maxBodyBytes?: number
  /** A search's `deadline`: this long after its query arrived (default 2000). */
  searchTimeoutMs?: number
  /** Where the metrics go (default: a registry of its own, with Node's metrics prefixed `pf_provider_`). */
  registry?: Registry
  /** Extra routes behind the same API key and body limit, under `/api` (`router.get('/lists')`: `GET /api/lists`). */
  routes?(router: Router): void
  /**
   * What the extra routes take and answer, for `/openapi.json`, and which of them stream their bodies (`streamed`:
   * the kit leaves those unread). A mounted route without one is still listed there (its path, the API key, the
   * 401), and the log warns at creation.
   */
  routeDocs?: readonly RouteDoc[]
  /** What else `/ready` waits for, beside the default bucket. */
  ready?(): Promise<unknown>
  /** `/ready`'s cache, and a port of its own for `/metrics` (then not served here). */
  ops?: OpsSettings
  /** The OpenAPI document's title, version and description. */
  openApi?: { title?: string; version?: string; description?: string }
}

/** A provider as `serveProvider` runs it. */
export interface Provider {
  app: Express
  registry: Registry
  /** The OpenAPI document served at `/openapi.json`. */
  openApi: Record<string, unknown>
  /** Resolves when the default bucket (and `options.ready`) answer. */
  ready(): Promise<void>
  start(): Promise<void>
  /** Releases the S3 client the kit made (one given in `s3.client` is the caller's). */
  close(): Promise<void>
}

/**
 * Interface A around the given endpoints: `POST` on each endpoint's path behind `X-PF-Api-Key` (envelope and
 * parameters checks, search, delivery inline / `pf_s3_sync` / `webhook`, the signed callback before the answer,
 * the failed path), the extra `routes` behind the same key, `/health` (no key), `/ready`, `/metrics`,
 * `/openapi.json`, and a JSON 404. Reads no environment: every setting is an option.
 */
export function createProvider(options: ProviderOptions): Provider {
  const { endpoints, apiKeys, logger, s3: s3Options, outbound = {}, ops = DEFAULT_OPS_SETTINGS } = options
  const names = endpoints.map((endpoint) => endpoint.name)
  const twice = names.find((name, i) => names.indexOf(name) !== i)
  if (twice) throw new TypeError(`two endpoints are named "${twice}"`)
  // Only paths under /api are behind the API key and the body limit; two endpoints on one path hide the second.
  const paths = endpoints.map((endpoint) => endpointPath(endpoint).toLowerCase())
  const outside = paths.find((path) => !/^\/api\/[^?#]+$/.test(path))
  if (outside !== undefined) throw new TypeError(`an endpoint's path must be under /api/ (got "${outside}")`)
  const samePath = paths.find((path, i) => paths.indexOf(path) !== i)
  if (samePath) throw new TypeError(`two endpoints answer on "${samePath}"`)
  if (apiKeys.length === 0 || apiKeys.some((key) => !key)) throw new TypeError('apiKeys must hold a key')
  const timeoutMs = outbound.timeoutMs ?? 10_000
  const allowPrivate = outbound.allowPrivate ?? false
  const s3 =
    s3Options.client ??
    createS3Client({
      endpoint: s3Options.endpoint,
      region: s3Options.region ?? 'us-east-1',
      credentials: s3Options.credentials,
      timeoutMs,
    })
  const registry = options.registry ?? createMetricsRegistry('pf_provider')
  // Mounted on /api, after the key check and the body limit: `router.get('/lists')` is `GET /api/lists`.
  const extraRoutes = Router()
  options.routes?.(extraRoutes)
  const routeDocs = options.routeDocs ?? []
  const openApi = buildProviderOpenApi({
    endpoints,
    routes: documentedRoutes(extraRoutes, routeDocs, logger),
    ...options.openApi,
  })
  const ready = async () => {
    await Promise.all([
      s3.send(new HeadBucketCommand({ Bucket: s3Options.defaultBucket })),
      options.ready?.(),
    ])
  }
  const ports = createQueryPorts({
    s3,
    http: createOutboundClient({ allowPrivate, timeoutMs }),
    defaultBucket: s3Options.defaultBucket,
    outbound: { allowPrivate, timeoutMs, allowedPorts: outbound.allowedPorts },
    logger,
  })
  const app = express()
  app.disable('x-powered-by')
  app.use(createOpsRouter({ registry, ready, logger, ops }))
  app.get('/openapi.json', openApiRoute(openApi))
  const json = express.json({ limit: options.maxBodyBytes ?? 256 * 1024 })
  const streamed = streamedRoutes(routeDocs)
  app.use('/api', requireApiKey(apiKeys), (req, res, next) => {
    if (streamed(req)) next()
    else json(req, res, next)
  })
  app.use(
    createSearchRouter({
      endpoints,
      allowPrivate,
      allowedPorts: outbound.allowedPorts,
      allowPrivateSetting: outbound.allowPrivateSetting ?? 'outbound.allowPrivate',
      s3: { defaultBucket: s3Options.defaultBucket, allowedBuckets: s3Options.allowedBuckets },
      searchTimeoutMs: options.searchTimeoutMs ?? 2000,
      deliveryTimeoutMs: options.delivery?.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS,
      ports,
      logger,
      metrics: createQueryMetrics(registry),
    }),
  )
  // After the endpoints: a search request, the hot path, never walks the extra routes' layers (a dozen with the
  // watch API, a tenth of a small query's time in Express's router).
  app.use('/api', extraRoutes)
  app.use((_req, res) => {
    res.status(404).json({ error: 'not found' })
  })
  app.use(createErrorHandler({ logger, table: PROVIDER_HTTP_STATUS }))
  return {
    app,
    registry,
    openApi,
    ready,
    start: async () => {},
    close: async () => {
      if (!s3Options.client) s3.destroy()
    },
  }
}

/** The docs of the extra routes, and a bare one (path, API key) for each mounted route that has none. */
function documentedRoutes(router: Router, docs: readonly RouteDoc[], logger: Logger): RouteDoc[] {
  const undocumented = mountedRoutes(router).filter(
    (route) => !docs.some((doc) => doc.method === route.method && doc.path === route.path),
  )
  for (const route of undocumented)
    logger.warn(
      { method: route.method.toUpperCase(), path: `/api${route.path}` },
      'an extra route has no routeDocs entry: /openapi.json lists it without its schemas',
    )
  return [
    ...docs,
    ...undocumented.map((route) => ({
      ...route,
      summary: `${route.method.toUpperCase()} /api${route.path}`,
      responses: { '200': { description: 'not documented' } },
    })),
  ]
}
