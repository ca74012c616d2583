import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Pool } from 'pg'
import { createLogger } from '@pf/service-kit'
import type { S3ServerHandle } from '@pf/testkit/s3'
import type { ProviderConfig, WatchesConfig } from '../src/config'
import type { SanctionsLists } from '../src/lists/sanctions-lists'
import { openWatchesDatabase } from '../src/watches/open-watches-database'
import { API_KEY, startProvider } from './support-http'

/** The watch settings of a test provider: small bounds, a short idle interval. */
export const watchesConfig = (url: string, overrides: Partial<WatchesConfig> = {}): WatchesConfig => ({
  url,
  poolSize: 4,
  subjectsMaxBytes: 1024 * 1024,
  subjectsTimeoutMs: 60_000,
  screeningIntervalMs: 50,
  ...overrides,
})

/** A provider with watches on `url` (its own pool, migrated at start, closed with it). */
export async function startWatchProvider(
  store: S3ServerHandle,
  url: string,
  {
    lists,
    overrides,
    watchAlerts,
  }: {
    lists?: SanctionsLists
    overrides?: Partial<WatchesConfig>
    watchAlerts?: ProviderConfig['watchAlerts']
  } = {},
) {
  const config = watchesConfig(url, overrides)
  const pool = (await openWatchesDatabase(config, createLogger({ name: 'test', level: 'silent' }))) as Pool
  return startProvider(store, { lists, watches: { pool, config }, watchAlerts })
}

/** A JSON Lines sanctions list in a temp folder, rewritten by `write`: its path. */
export function listFile(name: string) {
  const path = join(mkdtempSync(join(tmpdir(), 'pf-watch-lists-')), `${name}.jsonl`)
  return {
    path,
    write: (entries: Record<string, unknown>[]) =>
      writeFileSync(path, entries.map((entry) => JSON.stringify(entry)).join('\n') + '\n'),
  }
}

/** A request to the watch API with the key; the answer's status and JSON body (null when none). */
export async function api(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${baseUrl}/api${path}`, {
    method,
    headers: {
      'x-pf-api-key': API_KEY,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await res.text()
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests read the answers' fields
  return { status: res.status, body: (text ? JSON.parse(text) : null) as any }
}

/** Waits until no subject waits for screening (counts, no time budget: jest's hang guard bounds it). */
export async function screeningDone(pool: Pool): Promise<void> {
  for (;;) {
    const { rows } = await pool.query<{ n: string }>(
      'SELECT count(*) AS n FROM watch_subjects WHERE screened_revision IS DISTINCT FROM revision',
    )
    if (rows[0]?.n === '0') return
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
