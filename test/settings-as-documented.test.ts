import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { DEMO_API_KEY } from '@pf/schemas'
import { createCleanup, freePort } from '@pf/testkit'
import { createWebhookEvent, deliverWebhook } from '@pf/testkit/platform'
import { startRedis } from '@pf/testkit/redis'

// Settings work as the READMEs say: a service started with `node --env-file=.env` from its folder reads the
// .env made from its .env.example (root README, "Settings from a file"); the provider README's data paths work
// from the root, where its commands run; a data folder without a dataset says where the other lists go.
const root = join(__dirname, '..')
const cleanup = createCleanup(afterAll)
const dir = mkdtempSync(join(tmpdir(), 'pf-settings-'))
cleanup.add(dir, (path) => rmSync(path, { recursive: true, force: true }))
const provider = join(root, 'services', 'provider')
const receiver = join(root, 'services', 'webhook-receiver')

/** Starts a command (detached: its process group is stopped at the end) and resolves with its ready line. */
async function started(command: string, args: string[], cwd: string, env: Record<string, string>) {
  const child: ChildProcess = cleanup.add(
    spawn(command, args, { cwd, env: { PATH: process.env.PATH, ...env }, detached: true }),
    async (running) => {
      if (running.exitCode !== null || running.signalCode !== null) return
      process.kill(-(running.pid as number), 'SIGTERM')
      await once(running, 'exit')
    },
  )
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`${args.join(' ')} exited ${String(code)} before it was ready: ${stderr}`)
  })
  const ready = (async () => {
    for await (const line of createInterface({ input: child.stdout! })) {
      const parsed = JSON.parse(line) as { msg?: string; url?: string }
      if (parsed.msg?.endsWith(' listening')) return parsed as { url: string }
    }
    return exited
  })()
  return Promise.race([ready, exited])
}

/** A .env as a user makes it: the service's .env.example with some lines filled in or uncommented. */
function dotEnv(service: string, values: Record<string, string>): string {
  let text = readFileSync(join(root, 'services', service, '.env.example'), 'utf8')
  for (const [name, value] of Object.entries(values)) {
    const line = new RegExp(`^(?:# )?${name}=.*$`, 'm')
    expect(text).toMatch(line)
    text = text.replace(line, `${name}=${value}`)
  }
  const file = join(dir, `${service}.env`)
  writeFileSync(file, text)
  return file
}

const listsOf = async (url: string, apiKey: string) => {
  const res = await fetch(`${url}/api/lists`, { headers: { 'X-PF-Api-Key': apiKey } })
  return {
    status: res.status,
    lists: res.ok ? ((await res.json()) as { lists: { name: string }[] }).lists : [],
  }
}

describe('a service reads its .env with node --env-file, from its folder (README, "Settings from a file")', () => {
  it('the provider: the API key and the data folder (a path relative to the service folder) come from the file', async () => {
    const env = dotEnv('provider', {
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      PF_API_KEY: 'key-from-the-env-file',
      PROVIDER_DATA_DIR: '../../data/reference/ofac-sdn-2021',
    })
    const { url } = await started(process.execPath, [`--env-file=${env}`, 'dist/main.js'], provider, {})
    expect((await listsOf(url, DEMO_API_KEY)).status).toBe(401)
    const { status, lists } = await listsOf(url, 'key-from-the-env-file')
    expect(status).toBe(200)
    expect(lists.map((list) => list.name)).toContain('ofac-sdn')
  })

  it('the receiver: its secret and Redis come from the file', async () => {
    const redis = cleanup.add(await startRedis({ fallbackUrl: process.env.REDIS_URL }), (r) => r.stop())
    const env = dotEnv('webhook-receiver', {
      PF_WEBHOOK_SECRET: 'whsec_from_the_env_file',
      REDIS_URL: redis.url,
      WEBHOOK_QUEUE_PREFIX: '{pf-env-file}',
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
    })
    const { url } = await started(process.execPath, [`--env-file=${env}`, 'dist/main.js'], receiver, {})
    const deliver = (secret: string) =>
      deliverWebhook({
        url: `${url}/webhooks/pf`,
        secret,
        body: createWebhookEvent('session.created'),
        attempts: 1,
      })
    expect((await deliver('whsec_from_the_env_file')).state).toBe('delivered')
    expect((await deliver('whsec_sandbox_secret')).attempts[0]?.status).toBe(401)
  })
})

describe('the provider README: data paths work from where its commands run', () => {
  // The lines of its "Run it" blocks that start the provider on data of the repository.
  const commands = readFileSync(join(provider, 'README.md'), 'utf8')
    .split('\n')
    .filter((line) =>
      /^(PROVIDER_DATA_DIR|SANCTIONS_SOURCES)=\S+ node services\/provider\/dist\/main\.js/.test(line),
    )

  it('shows the reference lists and registers', () => {
    expect(commands.join('\n')).toMatch(/ofac-sdn-2021[\s\S]*companies-cc0[\s\S]*un-consolidated/)
  })

  it.each(commands.map((command) => [command.replace(/\s+#.*$/, '')]))(
    'from the repository root: %s',
    async (command) => {
      const { url } = await started('bash', ['-c', command], root, {
        PORT: '0',
        HOST: '127.0.0.1',
      })
      const { status, lists } = await listsOf(url, DEMO_API_KEY)
      expect(status).toBe(200)
      if (command.startsWith('SANCTIONS_SOURCES'))
        expect(lists.map((list) => list.name)).toEqual(
          expect.arrayContaining(['un-sc-consolidated', 'us-csl', 'bis-dpl']),
        )
    },
  )

  it('a data folder without a dataset names the folder it read and says where UN XML, CSL and FtM lists go', () => {
    const run = (dataDir: string) =>
      spawnSync(process.execPath, ['services/provider/dist/main.js'], {
        cwd: root,
        env: { PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', PROVIDER_DATA_DIR: dataDir },
        encoding: 'utf8',
      })
    const listsOnly = run('data/reference/un-consolidated')
    expect(listsOnly.status).toBe(1)
    expect(listsOnly.stderr).toContain(
      `no dataset found in data/reference/un-consolidated (${join(root, 'data/reference/un-consolidated')}, relative to ${root})`,
    )
    expect(listsOnly.stderr).toContain(
      'UN XML, US CSL, BIS DPL and OpenSanctions FtM lists come through SANCTIONS_SOURCES',
    )
    const wrongFolder = run('../../data/reference/ofac-sdn-2021')
    expect(wrongFolder.status).toBe(1)
    expect(wrongFolder.stderr).toContain(
      `data folder ../../data/reference/ofac-sdn-2021 (${join(root, '../../data/reference/ofac-sdn-2021')}, relative to ${root}) does not exist`,
    )
  })
})
