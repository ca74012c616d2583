import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { startTracing, type Env } from '@pf/service-kit'
import { loadExchangeConfig } from '../services/auth-exchange/src/config'
import { loadProviderConfig } from '../services/provider/src/config'
import {
  loadDeadLettersConfig,
  loadReceiverConfig,
  loadWorkerConfig,
} from '../services/webhook-receiver/src/config'
import { envExample, SERVICES, TRACES_HEADING, readmeSettings, type Service } from '../scripts/env-example'

// Each service's .env.example lists every setting with its default and meaning, as its README does.
const root = join(__dirname, '..')
const read = (...path: string[]) => readFileSync(join(root, ...path), 'utf8')
const namesIn = (text: string) => new Set([...text.matchAll(/^(?:# )?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]))
/** Quoted setting names in a source file (`env.int('PORT', …)`, `['AWS_ACCESS_KEY_ID', …]`). */
const quotedNames = (source: string) =>
  [...source.matchAll(/'([A-Z][A-Z0-9_]{2,})'/g)].map((m) => m[1] as string)
// Not settings: the prefixes of `${'REALM' | 'TENANT'}_CLIENT_SECRET` in a message.
const NOT_SETTINGS = new Set(['REALM', 'TENANT'])

/** A service's config source: its src/config.ts, or every file of its src/config/ (one loader per process). */
function configSource(service: string): string {
  const folder = join(root, 'services', service, 'src', 'config')
  if (!existsSync(folder)) return read('services', service, 'src', 'config.ts')
  return readdirSync(folder)
    .filter((file) => file.endsWith('.ts'))
    .map((file) => readFileSync(join(folder, file), 'utf8'))
    .join('\n')
}

/**
 * The names a reader asks its environment for, over environments that take each branch it has (a style, a
 * Redis topology, TLS, production): what it reads, not what its source happens to quote.
 */
async function namesRead(read: (env: Env) => unknown, variants: Env[]): Promise<Set<string>> {
  const names = new Set<string>()
  for (const variant of variants) {
    const env = new Proxy(variant, {
      get: (target, name) => {
        if (typeof name === 'string' && /^[A-Z][A-Z0-9_]+$/.test(name)) names.add(name)
        return target[name as string]
      },
    })
    // A bad variant ends in a ConfigError; what was read before it counts.
    await Promise.resolve()
      .then(() => read(env))
      .catch(() => undefined)
  }
  return names
}

const everywhere: Env[] = [{}, { NODE_ENV: 'production' }]
const styles: Env[] = [
  { IDP_STYLE: 'realm' },
  { IDP_STYLE: 'realm', REALM_ADMIN_AUTH: 'client_credentials' },
  { IDP_STYLE: 'tenant' },
]
const redisTopologies: Env[] = [
  { REDIS_SENTINELS: '127.0.0.1:1', REDIS_SENTINEL_NAME: 'pf' },
  { REDIS_CLUSTER_NODES: '127.0.0.1:1' },
]
/** Each service's config readers, with the environments that take their branches. */
const READERS: Record<Service, [(env: Env) => unknown, Env[]][]> = {
  provider: [
    [
      loadProviderConfig,
      [
        ...everywhere,
        {
          COMPANIES_DATABASE_URL: 'postgres://h/db',
          PROVIDER_MAX_DELIVERY_RECORDS: '10',
          S3_ENDPOINT: 'http://h',
        },
      ],
    ],
  ],
  'webhook-receiver': [
    [loadReceiverConfig, [...everywhere, ...redisTopologies, { TLS_CERT_FILE: '/c', TLS_KEY_FILE: '/k' }]],
    [
      loadWorkerConfig,
      [...everywhere, ...redisTopologies, ...styles.map((env) => ({ ...env, IDP_SESSION_END: 'on' }))],
    ],
    [loadDeadLettersConfig, [...everywhere, ...redisTopologies]],
  ],
  'auth-exchange': [[loadExchangeConfig, [...everywhere, ...styles]]],
}
// Every process starts tracing from its environment (serve, runCommand); these take startTracing's branches
// without starting the SDK (which reads the other OTEL_* variables itself: the README's table lists them).
const TRACING: Env[] = [
  {},
  { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://h', OTEL_TRACES_EXPORTER: 'none' },
  {
    OTEL_EXPORTER_OTLP_ENDPOINT: 'http://h',
    OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
    OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'not-a-protocol',
  },
]

describe('.env.example per service', () => {
  it.each(SERVICES)(
    '%s: is what its README and the root README say (pnpm env-examples writes it)',
    (service) => {
      expect(read('services', service, '.env.example')).toBe(envExample(service, (path) => read(path)))
    },
  )

  it.each(SERVICES)('%s: lists every setting its config reads, the shared ones included', (service) => {
    const config = configSource(service)
    const shared = [
      ...(config.includes('readOpsSettings')
        ? quotedNames(read('packages/service-kit/src/ops-settings.ts'))
        : []),
      ...(config.includes('readServerLimits')
        ? quotedNames(read('packages/service-kit/src/server-limits.ts'))
        : []),
    ]
    const listed = namesIn(read('services', service, '.env.example'))
    const missing = [...new Set([...quotedNames(config), ...shared])].filter(
      (name) => !NOT_SETTINGS.has(name) && !listed.has(name),
    )
    expect(missing).toEqual([])
  })

  it.each(SERVICES)(
    '%s: lists every name its config readers and tracing read from the environment, OTEL_* included',
    async (service) => {
      const reads = [
        ...(await Promise.all(READERS[service].map(([reader, variants]) => namesRead(reader, variants)))),
        await namesRead((env) => startTracing({ serviceName: service, env }), TRACING),
      ].flatMap((names) => [...names])
      const documented = readmeSettings(read('README.md'), TRACES_HEADING).flatMap(({ names }) => names)
      const listed = namesIn(read('services', service, '.env.example'))
      expect(reads).toEqual(expect.arrayContaining(['OTEL_EXPORTER_OTLP_ENDPOINT', 'PORT']))
      expect(documented).toEqual(expect.arrayContaining(['OTEL_SERVICE_NAME', 'OTEL_TRACES_SAMPLER']))
      expect([...new Set([...reads, ...documented])].filter((name) => !listed.has(name))).toEqual([])
    },
  )
})
