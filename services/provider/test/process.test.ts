import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createCleanup, freePort, startServiceProcess } from '@pf/testkit'
import { startS3Server } from '@pf/testkit/s3'
import { SAMPLE_DATA_DIR } from '../src/config'

const main = join(__dirname, '..', 'dist', 'main.js')
// What a test starts is stopped after it, even when the provider process fails to start after its store.
const cleanup = createCleanup(afterEach)

beforeAll(() => {
  if (!existsSync(main)) throw new Error('dist/ is missing: run `pnpm build` (pnpm test does)')
})

describe('provider process', () => {
  it('refuses to start in production with the demo API key, in one line', () => {
    const result = spawnSync(process.execPath, [main], {
      env: { PATH: process.env.PATH, NODE_ENV: 'production' },
      encoding: 'utf8',
    })
    expect(result.status).toBe(1)
    expect(result.stderr).toBe(
      'provider: invalid configuration: PF_API_KEY must be set to your own secret when NODE_ENV=production (the demo key is public)\n',
    )
  })

  // A list that cannot be read must stop the start: serving without it screens against less than configured.
  const sampleWith = (name: string, write: (path: string) => void) => {
    const dir = mkdtempSync(join(tmpdir(), 'pf-data-'))
    cpSync(SAMPLE_DATA_DIR, dir, { recursive: true })
    write(join(dir, name))
    return { PROVIDER_DATA_DIR: dir }
  }
  const listFile = (name: string, content: string) => {
    const file = join(mkdtempSync(join(tmpdir(), 'pf-lists-')), name)
    writeFileSync(file, content)
    return { SANCTIONS_SOURCES: file }
  }
  it.each([
    [
      'a corrupt OFAC file in PROVIDER_DATA_DIR',
      () => sampleWith('cons_prim.csv', (path) => writeFileSync(path, '1,"UNCLOSED QUOTE,entity\n')),
      /cons_prim\.csv: Quote Not Closed/,
    ],
    [
      'an unreadable list in PROVIDER_DATA_DIR',
      () => sampleWith('more-sanctions.jsonl', (path) => mkdirSync(path)),
      /more-sanctions\.jsonl cannot be read \(EISDIR\)/,
    ],
    [
      'a corrupt list in SANCTIONS_SOURCES',
      () => listFile('watch-sanctions.jsonl', '{"id": "W1", "name": "ZORRO"}\n{"id": '),
      /watch-sanctions\.jsonl line 2 is not JSON/,
    ],
  ])('exits 1 with one line naming the file when %s at start', (_case, env, message) => {
    const result = spawnSync(process.execPath, [main], {
      env: { PATH: process.env.PATH, PORT: '0', ...env() },
      encoding: 'utf8',
      timeout: 60_000, // a hang guard: a provider that starts serving never exits by itself
    })
    expect(result.stderr).toMatch(/^provider: failed to start: [^\n]+\n$/)
    expect(result.stderr).toMatch(message)
    expect(result.status).toBe(1)
  })

  it("never shows a list URL's user, password or token, even when the list cannot be fetched (one redaction: issue 35)", async () => {
    const url = `http://reader:s3cr3t-pw@127.0.0.1:${await freePort()}/ofac/sdn.csv?token=t0ken-value`
    const result = spawnSync(process.execPath, [main], {
      env: { PATH: process.env.PATH, PORT: '0', SANCTIONS_SOURCES: url },
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect(result.status).toBe(1)
    expect(result.stderr).toMatch(
      /^provider: failed to start: http:\/\/\*\*\*@127\.0\.0\.1:\d+\/ofac\/sdn\.csv\?token=\*\*\* could not be fetched: [^\n]+\n$/,
    )
    expect(result.stdout + result.stderr).not.toMatch(/reader|s3cr3t|t0ken/)
  })

  /** The built provider with the bundled sample and an S3-compatible store of its own. */
  async function startWithStore(env: Record<string, string>) {
    const store = cleanup.add(await startS3Server({ buckets: ['pf-deliveries'] }), (s) => s.stop())
    return startServiceProcess({
      entry: main,
      env: {
        PATH: process.env.PATH,
        PORT: '0',
        S3_ENDPOINT: store.endpoint,
        AWS_ACCESS_KEY_ID: store.credentials.accessKeyId,
        AWS_SECRET_ACCESS_KEY: store.credentials.secretAccessKey,
        ...env,
      },
      readyMessage: 'provider listening',
    })
  }

  it('says only its status at /health and /ready, and serves /metrics on METRICS_PORT alone', async () => {
    const provider = await startWithStore({ METRICS_PORT: '0' })
    try {
      const { url, metricsUrl } = provider.readyLine as { url: string; metricsUrl: string }
      expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: 'ok' })
      expect(await (await fetch(`${url}/ready`)).json()).toEqual({ status: 'ready' })
      expect((await fetch(`${url}/metrics`)).status).toBe(404)
      const metrics = await fetch(`${metricsUrl}/metrics`)
      expect(metrics.status).toBe(200)
      expect(await metrics.text()).toMatch(/^pf_provider_process_cpu_user_seconds_total /m)
      expect((await fetch(`${metricsUrl}/api/lists`)).status).toBe(404)
      expect(await provider.stop('SIGTERM')).toBe(0)
    } finally {
      await provider.stop('SIGKILL')
    }
  })

  it('serves the bundled sample by default, and drains and exits 0 on SIGTERM', async () => {
    const provider = await startWithStore({ OUTBOUND_ALLOW_PRIVATE: 'true' })
    try {
      const loaded = provider.logs.find((l) => l.msg === 'datasets loaded and indexed') as {
        sources: { file: string }[]
      }
      expect(loaded.sources.map((s) => s.file)).toEqual(['companies.jsonl', 'sanctions.jsonl'])
      const { url } = provider.readyLine as { url: string }
      expect((await fetch(`${url}/ready`)).status).toBe(200)
      const res = await fetch(`${url}/api/search/companies`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-pf-api-key': 'pf-demo-api-key' },
        body: JSON.stringify({
          queryId: 'q-1',
          callbackUrl: 'http://127.0.0.1:9/cb',
          parameters: { name: 'acme', limit: 3 },
        }),
      })
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({ queryId: 'q-1', recordCount: 3 })
      expect(await provider.stop('SIGTERM')).toBe(0)
    } finally {
      await provider.stop('SIGKILL')
    }
  })

  it('reloads its sanctions lists on SIGHUP, and keeps the lists in use when a source breaks', async () => {
    const source = join(mkdtempSync(join(tmpdir(), 'pf-lists-')), 'watch.jsonl')
    const write = (...names: string[]) =>
      writeFileSync(source, names.map((name, i) => JSON.stringify({ id: `W${i}`, name })).join('\n'))
    write('ZORRO TRADING HOUSE')
    const provider = await startServiceProcess({
      entry: main,
      env: { PATH: process.env.PATH, PORT: '0', OUTBOUND_ALLOW_PRIVATE: 'true', SANCTIONS_SOURCES: source },
      readyMessage: 'provider listening',
    })
    const { url } = provider.readyLine as { url: string }
    const headers = { 'content-type': 'application/json', 'x-pf-api-key': 'pf-demo-api-key' }
    const lists = async () =>
      (
        (await (await fetch(`${url}/api/lists`, { headers })).json()) as {
          lists: { records: number; sha256: string }[]
        }
      ).lists[0]
    const screen = async (name: string) =>
      (await (
        await fetch(`${url}/api/search/sanctions`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ queryId: 'q', callbackUrl: 'http://127.0.0.1:9/cb', parameters: { name } }),
        })
      ).json()) as { recordCount: number; lists: { sha256: string }[] }
    // A refresh's outcome is logged once; wait for the next one.
    const refreshed = async (signal: NodeJS.Signals) => {
      const seen = provider.logs.length
      provider.child.kill(signal)
      for (;;) {
        const line = provider.logs.slice(seen).find((l) => /sanctions lists refresh/.test(String(l.msg)))
        if (line) return line.msg
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    }
    try {
      const before = await lists()
      expect(before?.records).toBe(1)
      expect((await screen('AURORA BALTIC SHIPPING')).recordCount).toBe(0)

      write('ZORRO TRADING HOUSE', 'AURORA BALTIC SHIPPING')
      expect(await refreshed('SIGHUP')).toBe('sanctions lists refreshed')
      const after = await lists()
      expect(after).toMatchObject({ records: 2 })
      expect(after?.sha256).not.toBe(before?.sha256)
      const found = await screen('AURORA BALTIC SHIPPING')
      expect(found.recordCount).toBe(1)
      expect(found.lists[0]?.sha256).toBe(after?.sha256)

      writeFileSync(source, '{"id": "broken", ')
      expect(await refreshed('SIGHUP')).toBe('sanctions lists refresh failed; the previous lists stay in use')
      expect(await lists()).toEqual(after)
      expect((await screen('AURORA BALTIC SHIPPING')).recordCount).toBe(1)
      expect(await provider.stop('SIGTERM')).toBe(0)
    } finally {
      await provider.stop('SIGKILL')
    }
  })

  it.each(['full and unread', 'closed by its reader'])(
    'exits 0 on SIGTERM with its log pipe %s (guide: whatever state its stdout is in)',
    async (state) => {
      const provider = await startServiceProcess({
        entry: main,
        env: { PATH: process.env.PATH, PORT: '0', OUTBOUND_ALLOW_PRIVATE: 'true' },
        readyMessage: 'provider listening',
      })
      try {
        if (state === 'full and unread') provider.child.stdout!.pause()
        else provider.child.stdout!.destroy()
        const { url } = provider.readyLine as { url: string }
        // Each query logs two warnings (no callbackToken; the callback target refuses): ~200 KiB in all.
        for (let i = 0; i < 400; i += 1) {
          const res = await fetch(`${url}/api/search/sanctions`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-pf-api-key': 'pf-demo-api-key' },
            body: JSON.stringify({
              queryId: `q-${i}`,
              callbackUrl: 'http://127.0.0.1:9/cb',
              parameters: { name: 'x' },
            }),
          })
          expect(res.status).toBe(200)
        }
        expect(await provider.stop('SIGTERM')).toBe(0)
      } finally {
        await provider.stop('SIGKILL')
      }
    },
  )
})
