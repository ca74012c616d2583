import { cpSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLogger } from '@pf/service-kit'
import { createCleanup } from '@pf/testkit'
import type { S3ServerHandle } from '@pf/testkit/s3'
import { SanctionsLists } from '../src/lists/sanctions-lists'
import {
  API_KEY,
  query,
  startProvider,
  startRecorder,
  startStore,
  type StartedProvider,
} from './support-http'
import { referenceData } from './support-data'

export const listOptions = {
  timeoutMs: 30_000,
  maxBytes: 64 * 1024 * 1024,
  logger: createLogger({ name: 'test', level: 'silent' }),
}

/** A copy of reference files in a fresh temp folder (tests may change it): the folder. */
export function copyOf(...files: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'pf-lists-'))
  for (const file of files)
    cpSync(referenceData(file), join(dir, file.split('/').pop()!), { recursive: true })
  return dir
}

export interface ListInfoBody {
  name: string
  format: string
  records: number
  sha256: string
  version: string
  source: string
  sublists?: { name: string; title: string; records: number }[]
}

export interface Hit {
  id: string
  name: string
  list: string
  type: string
  score: number
  matchedName: string
  birthDates?: string[]
  lists: { name: string; id: string; version: string }[]
  explanation: Record<string, unknown> & { score: number }
}

/**
 * Providers over sanctions lists, each on a free port with a shared S3 store and callback recorder; every one
 * started is stopped after the suite.
 */
export function listsWorld() {
  const cleanup = createCleanup(afterAll)
  let store: S3ServerHandle
  let callbacks: Awaited<ReturnType<typeof startRecorder>>
  beforeAll(async () => {
    store = cleanup.add(await startStore(), (s) => s.stop())
    callbacks = cleanup.add(await startRecorder(), (r) => r.close())
  })
  let count = 0
  const start = async (sources: string[]) => {
    const lists = await SanctionsLists.load(sources, listOptions)
    const server: StartedProvider = cleanup.add(await startProvider(store, { lists }), (s) => s.stop())
    const screen = (parameters: Record<string, unknown>) =>
      query(server.url, 'sanctions', {
        queryId: `q-${(count += 1)}`,
        callbackUrl: `${callbacks.url}/cb`,
        parameters,
      })
    const hits = async (parameters: Record<string, unknown>) => {
      const answer = await screen(parameters)
      if (answer.status !== 200) throw new Error(`status ${answer.status}: ${JSON.stringify(answer.body)}`)
      return answer.body.results as Hit[]
    }
    const listsNow = async () =>
      (await (await fetch(`${server.url}/api/lists`, { headers: { 'x-pf-api-key': API_KEY } })).json()) as {
        lists: ListInfoBody[]
        lastRefresh: { ok: boolean } | null
      }
    return { server, lists, screen, hits, listsNow }
  }
  return { start }
}
