import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServiceProcess } from '@pf/testkit'
import { referenceData } from './support-data'

// The built provider with the UN, US and OpenSanctions lists in SANCTIONS_SOURCES (issue 25): it serves them
// named and versioned, and a malformed list stops its start with one line naming the file and the position.
const main = join(__dirname, '..', 'dist', 'main.js')
beforeAll(() => {
  if (!existsSync(main)) throw new Error('dist/ is missing: run `pnpm build` (pnpm test does)')
})

describe('provider process with the UN, US and OpenSanctions lists', () => {
  it('recognises each format from its content (a file or a folder), and serves them named and versioned', async () => {
    const sources = [
      referenceData('un-consolidated', 'consolidated.xml'),
      referenceData('us-csl'),
      `ftm:${referenceData('opensanctions-ftm', 'zala.ftm.json')}`,
    ]
    const provider = await startServiceProcess({
      entry: main,
      env: {
        PATH: process.env.PATH,
        PORT: '0',
        OUTBOUND_ALLOW_PRIVATE: 'true',
        SANCTIONS_SOURCES: sources.join(','),
      },
      readyMessage: 'provider listening',
    })
    try {
      const { url } = provider.readyLine as { url: string }
      const headers = { 'content-type': 'application/json', 'x-pf-api-key': 'pf-demo-api-key' }
      const { lists } = (await (await fetch(`${url}/api/lists`, { headers })).json()) as {
        lists: { name: string; version: string }[]
      }
      expect(lists.map((l) => l.name)).toEqual(['un-sc-consolidated', 'us-csl', 'bis-dpl', 'zala'])
      expect(lists[0]?.version).toBe('2026-02-27T00:00:09.554Z')
      const res = await fetch(`${url}/api/search/sanctions`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          queryId: 'q-1',
          callbackUrl: 'http://127.0.0.1:9/cb',
          parameters: { name: 'Qusay Saddam Hussein', lists: ['un-sc-consolidated'], entityType: 'person' },
        }),
      })
      const body = (await res.json()) as { results: { id: string }[] }
      expect(body.results[0]).toMatchObject({ id: 'IQi.002' })
      expect(await provider.stop('SIGTERM')).toBe(0)
    } finally {
      await provider.stop('SIGKILL')
    }
  })

  it.each([
    [
      'UN XML',
      'consolidated.xml',
      () => readFileSync(referenceData('un-consolidated', 'consolidated.xml')).subarray(0, 100_000),
      /consolidated\.xml line 2366:4: unclosed tag: TITLE/,
    ],
    ['CSL', 'csl.csv', () => 'source,name,alt_names\nA (X),"B,\n', /csl\.csv line 2: Quote Not Closed/],
    [
      'FtM',
      'watch.ftm.json',
      () => '{"id": "a", "schema": "Person", "properties": {}}\n{"id"\n',
      /watch\.ftm\.json line 2: not JSON/,
    ],
  ])(
    'exits 1 with one line naming the file and the position when its %s list is malformed at start',
    (_format, file, content, message) => {
      const path = join(mkdtempSync(join(tmpdir(), 'pf-bad-')), file)
      writeFileSync(path, content())
      const result = spawnSync(process.execPath, [main], {
        env: { PATH: process.env.PATH, PORT: '0', SANCTIONS_SOURCES: path },
        encoding: 'utf8',
        timeout: 60_000, // a hang guard: a provider that starts serving never exits by itself
      })
      expect(result.status).toBe(1)
      expect(result.stderr).toMatch(/^provider: [^\n]+\n$/)
      expect(result.stderr).toMatch(message)
    },
  )
})
