import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createCleanup, startServiceProcess } from '@pf/testkit'
import { createWebhookEvent, deliverWebhook } from '@pf/testkit/platform'
import { startRedis } from '@pf/testkit/redis'

// The published libraries as a consumer gets them (service contract, "Published packages"): packed to
// tarballs, installed from those into a fresh TypeScript project, compiled with `skipLibCheck: false` (so
// every .d.ts must resolve with only the declared dependencies) and run, as ESM and as CommonJS.
const root = join(__dirname, '..')
const libraries = ['signing', 'schemas', 'idp-clients', 'testkit']
const testkitSubpaths = ['redis', 's3', 'emulators', 'platform', 'openapi']

const run = (command: string, args: string[], cwd: string) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()

// What each module system imports and prints: `typeof` of one value per entry point.
const probes: Record<string, string> = {
  '@pf/signing': 'signWebhook',
  '@pf/schemas': 'defineHandlers',
  '@pf/idp-clients': 'createRealmClient',
  '@pf/testkit': 'loadTestVectors',
  '@pf/testkit/redis': 'startRedis',
  '@pf/testkit/emulators': 'startKeycloakEmulator',
  '@pf/testkit/platform': 'deliverWebhook',
  '@pf/testkit/openapi': 'createResponseValidator',
}
const expected = Object.keys(probes)
  .map(() => 'function')
  .join(' ')

const ESM = `${Object.entries(probes)
  .map(([from, name], i) => `import { ${name} as p${i} } from '${from}'`)
  .join('\n')}
import type { StartS3ServerOptions } from '@pf/testkit/s3'
import type { IdentityProvider, IdentityProviderSettings, JwtClaims, MarketplaceUser } from '@pf/idp-clients'
import type { WebhookHandlers } from '@pf/schemas'

const handlers: WebhookHandlers = { 'session.created': async (event) => void event.data.sessionId }
const user: MarketplaceUser = { userId: 'u', orgId: 'o', applicationId: 'a' }
const claims: JwtClaims = { sub: user.userId }
const s3: StartS3ServerOptions = { buckets: [] }
const revoke = (idp: IdentityProvider, settings: IdentityProviderSettings) => idp.revoke(settings.style)
void [handlers, claims, s3, revoke]
console.log([${Object.keys(probes)
  .map((_, i) => `typeof p${i}`)
  .join(', ')}].join(' '))
`

const CJS = `${Object.entries(probes)
  .map(([from], i) => `import p${i} = require('${from}')`)
  .join('\n')}
console.log([${Object.values(probes)
  .map((name, i) => `typeof p${i}.${name}`)
  .join(', ')}].join(' '))
`

let project: string

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'pf-consumer-'))
  const tarballs = join(project, 'tarballs')
  mkdirSync(tarballs)
  for (const name of libraries) {
    run('pnpm', ['pack', '--pack-destination', tarballs], join(root, 'packages', name))
  }
  const files = readdirSync(tarballs)
  const tarball = (name: string) => {
    const file = files.find((f) => f.startsWith(`pf-${name}-`))
    if (!file) throw new Error(`no tarball for @pf/${name} in ${files.join(', ')}`)
    return `file:./tarballs/${file}`
  }
  const local = Object.fromEntries(libraries.map((name) => [`@pf/${name}`, tarball(name)]))
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({
      name: 'pf-consumer',
      private: true,
      dependencies: local,
      // A library's dependency on a sibling (testkit → signing) resolves to the tarball, never the registry.
      overrides: local,
    }),
  )
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        strict: true,
        skipLibCheck: false,
        outDir: 'out',
        types: ['node'],
        // Only Node's own types come from the workspace; every package type resolves from the install.
        typeRoots: [join(root, 'node_modules', '@types')],
      },
      files: ['esm.mts', 'cjs.cts'],
    }),
  )
  writeFileSync(join(project, 'esm.mts'), ESM)
  writeFileSync(join(project, 'cjs.cts'), CJS)
  run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], project)
})

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true })
})

it('every library and testkit subpath compiles in a consumer project with skipLibCheck: false', () => {
  expect(() =>
    run(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', '.'], project),
  ).not.toThrow()
})

it('an ESM consumer imports every entry point', () => {
  expect(run(process.execPath, ['out/esm.mjs'], project)).toBe(expected)
})

it('a CommonJS consumer requires every entry point', () => {
  expect(run(process.execPath, ['out/cjs.cjs'], project)).toBe(expected)
})

it('a handler package outside the workspace, built on the packed @pf/schemas, runs in the built worker', async () => {
  // Your own repository's handler package, as the README's "Your own handlers, deployed" has it: it depends on
  // @pf/schemas (here the tarball the consumer project installed), and the worker loads it by WEBHOOK_HANDLERS.
  const handlerDir = join(project, 'my-handlers')
  mkdirSync(handlerDir)
  const handled = join(handlerDir, 'handled.log')
  writeFileSync(
    join(handlerDir, 'package.json'),
    JSON.stringify({ name: 'my-handlers', private: true, main: 'index.cjs' }),
  )
  writeFileSync(
    join(handlerDir, 'index.cjs'),
    `const fs = require('node:fs')
const { defineHandlers } = require('@pf/schemas')
exports.handlers = defineHandlers({
  'session.created': async (event) => fs.appendFileSync(${JSON.stringify(handled)}, event.webhookId + ' ' + event.data.sessionId + '\\n'),
})
`,
  )
  const cleanup = createCleanup()
  try {
    const redis = cleanup.add(await startRedis(), (r) => r.stop())
    const env = {
      PATH: process.env.PATH,
      REDIS_URL: redis.url,
      PF_WEBHOOK_SECRET: 'whsec_consumer',
      PORT: '0',
    }
    const dist = join(root, 'services', 'webhook-receiver', 'dist')
    const receiver = cleanup.add(
      await startServiceProcess({
        entry: join(dist, 'main.js'),
        env,
        readyMessage: 'webhook receiver listening',
      }),
      (p) => p.stop(),
    )
    cleanup.add(
      await startServiceProcess({
        entry: join(dist, 'worker.js'),
        env: { ...env, WEBHOOK_HANDLERS: handlerDir + '/index.cjs' },
        readyMessage: 'webhook worker running',
      }),
      (p) => p.stop(),
    )
    const event = createWebhookEvent('session.created')
    const outcome = await deliverWebhook({
      url: `${String(receiver.readyLine.url)}/webhooks/pf`,
      secret: 'whsec_consumer',
      body: event,
      attempts: 1,
    })
    expect(outcome.state).toBe('delivered')
    for (let poll = 0; poll < 400 && !existsSync(handled); poll += 1)
      await new Promise((r) => setTimeout(r, 25))
    expect(readFileSync(handled, 'utf8')).toBe(`${event.webhookId} sess_test_1\n`)
  } finally {
    await cleanup.run()
  }
})

it("require('@pf/testkit') loads no server, SDK or JWT library (those live in its subpath entries)", () => {
  const loaded = run(
    process.execPath,
    [
      '-e',
      "require('@pf/testkit'); console.log(Object.keys(require.cache).filter((f) => /node_modules[\\\\/](express|jsonwebtoken|@aws-sdk|s3rver|ajv|@grpc)[\\\\/]/.test(f)).length)",
    ],
    project,
  )
  expect(loaded).toBe('0')
})

it('installs no known-vulnerable dependency: s3rver (fast-xml-parser 3, dicer) is an optional peer of @pf/testkit/s3', () => {
  for (const name of ['s3rver', 'fast-xml-parser', 'dicer']) {
    expect(existsSync(join(project, 'node_modules', name))).toBe(false)
  }
})

it('@pf/idp-clients exports no internals', () => {
  const names = run(
    process.execPath,
    ['-e', "console.log(Object.keys(require('@pf/idp-clients')).join(' '))"],
    project,
  )
  for (const internal of ['TokenCache', 'retryDelay', 'exactTerm', 'createHttpClient']) {
    expect(names.split(' ')).not.toContain(internal)
  }
})

it('@pf/idp-clients: an ESM and a CommonJS consumer read the settings from an object and get an IdentityProvider', () => {
  const env = JSON.stringify({
    IDP_STYLE: 'tenant',
    TENANT_DOMAIN: 'acme.eu.auth0.com',
    TENANT_CLIENT_ID: 'c',
    TENANT_CLIENT_SECRET: 's',
  })
  const use = `const { settings, problems } = m.readIdentityProviderSettings(${env});
const idp = m.createIdentityProvider(settings);
console.log(problems.length, idp.style, idp.discovery.url)`
  const expected = '0 tenant https://acme.eu.auth0.com/.well-known/openid-configuration'
  const esm = `import * as m from '@pf/idp-clients'\n${use}`
  const cjs = `const m = require('@pf/idp-clients')\n${use}`
  expect(run(process.execPath, ['--input-type=module', '-e', esm], project)).toBe(expected)
  expect(run(process.execPath, ['-e', cjs], project)).toBe(expected)
})

describe.each(libraries)('@pf/%s as published', (name) => {
  const dir = join(root, 'packages', name)
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  const entries = Object.entries(pkg.exports as Record<string, unknown>).filter(
    ([path]) => path !== './package.json',
  ) as [string, Record<'import' | 'require', { types: string; default: string }>][]

  it('names .d.ts first for both module systems in every export, and is side-effect free', () => {
    for (const [, conditions] of entries) {
      for (const condition of ['import', 'require'] as const) {
        expect(Object.keys(conditions[condition])[0]).toBe('types')
        expect(existsSync(join(dir, conditions[condition].types))).toBe(true)
      }
    }
    expect(pkg.sideEffects).toBe(false)
  })

  it('never reads process.env', () => {
    for (const [, conditions] of entries) {
      for (const condition of ['import', 'require'] as const) {
        expect(readFileSync(join(dir, conditions[condition].default), 'utf8')).not.toMatch(/process\.env/)
      }
    }
  })

  it('declares every package its .d.ts files import', () => {
    const declared = new Set([
      ...Object.keys(pkg.dependencies ?? {}),
      ...Object.keys(pkg.peerDependencies ?? {}),
    ])
    const types = readdirSync(join(dir, 'dist'), { recursive: true, encoding: 'utf8' }).filter((f) =>
      /\.d\.(m|c)?ts$/.test(f),
    )
    for (const file of types) {
      const text = readFileSync(join(dir, 'dist', file), 'utf8')
      for (const [, specifier] of text.matchAll(/from '([^'.][^']*)'/g)) {
        const bare = specifier!.startsWith('@')
          ? specifier!.split('/').slice(0, 2).join('/')
          : specifier!.split('/')[0]!
        if (bare.startsWith('node:')) continue
        expect(`${file} → ${bare}`).toBe(declared.has(bare) ? `${file} → ${bare}` : `${file} → (undeclared)`)
      }
    }
  })
})

it('@pf/service-kit leaves Express to its host (a peer dependency, not bundled into dist)', () => {
  const dir = join(root, 'packages', 'service-kit')
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  expect(pkg.peerDependencies).toHaveProperty('express')
  expect(pkg.dependencies).not.toHaveProperty('ajv')
  expect(readFileSync(join(dir, 'dist', 'index.js'), 'utf8')).toMatch(/require\("express"\)/)
})

it.each(testkitSubpaths)('@pf/testkit/%s is an export of its own', (subpath) => {
  const pkg = JSON.parse(readFileSync(join(root, 'packages', 'testkit', 'package.json'), 'utf8'))
  expect(Object.keys(pkg.exports)).toContain(`./${subpath}`)
})
