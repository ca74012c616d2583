import type { Logger } from '@pf/service-kit'
import { SanctionsIndex } from '../screening/sanctions-index'
import { loadSanctionsSource, type SanctionsList, type SourceOptions } from './load-sanctions-source'

/** What `/api/lists` and `/ready` report of a list, and what each screening answer names. */
export type ListInfo = Omit<SanctionsList, 'entries'>
/** The version of a list an answer was computed on. */
export interface ListVersion {
  name: string
  sha256: string
}

/** An index and the lists it was built from: swapped as one, so a search never mixes two versions. */
export interface ListsSnapshot {
  index: SanctionsIndex
  lists: ListInfo[]
  versions: ListVersion[]
}

const snapshotOf = (lists: SanctionsList[]): ListsSnapshot => {
  const info = lists.map(({ entries: _entries, ...rest }) => rest)
  return {
    index: SanctionsIndex.build(lists.flatMap((l) => l.entries)),
    lists: info,
    versions: info.map(({ name, sha256 }) => ({ name, sha256 })),
  }
}

/**
 * The sanctions lists the provider screens against. `refresh()` loads every source, builds the new index beside
 * the one in use and swaps them in one assignment; when any source fails, the previous index stays in use (and
 * the failure is logged and reported). Refreshes never overlap.
 */
export class SanctionsLists {
  private snapshot: ListsSnapshot
  private running: Promise<RefreshOutcome> | undefined
  lastRefresh: RefreshOutcome | undefined

  private constructor(
    private readonly sources: string[],
    private readonly options: SourceOptions & { logger: Logger },
    first: ListsSnapshot,
  ) {
    this.snapshot = first
  }

  /** Loads the sources once; rejects when one fails (at start, there is no previous index to keep). */
  static async load(sources: string[], options: SourceOptions & { logger: Logger }): Promise<SanctionsLists> {
    return new SanctionsLists(sources, options, snapshotOf(await loadAll(sources, options)))
  }

  /** A fixed set, for tests and for engines built from datasets. */
  static of(lists: SanctionsList[], logger: Logger): SanctionsLists {
    return new SanctionsLists([], { timeoutMs: 0, maxBytes: 0, logger }, snapshotOf(lists))
  }

  current(): ListsSnapshot {
    return this.snapshot
  }

  refresh(): Promise<RefreshOutcome> {
    this.running ??= (async (): Promise<RefreshOutcome> => {
      const started = performance.now()
      try {
        const next = snapshotOf(await loadAll(this.sources, this.options))
        this.snapshot = next
        const outcome = {
          ok: true,
          at: new Date().toISOString(),
          ms: Math.round(performance.now() - started),
        }
        this.options.logger.info(
          {
            lists: next.lists.map(({ name, records, sha256 }) => ({ name, records, sha256 })),
            ms: outcome.ms,
          },
          'sanctions lists refreshed',
        )
        return outcome
      } catch (error) {
        const message = (error as Error).message
        this.options.logger.error(
          { err: { message } },
          'sanctions lists refresh failed; the previous lists stay in use',
        )
        return {
          ok: false,
          at: new Date().toISOString(),
          ms: Math.round(performance.now() - started),
          error: message,
        }
      }
    })().then((outcome) => {
      this.lastRefresh = outcome
      this.running = undefined
      return outcome
    })
    return this.running
  }
}

export interface RefreshOutcome {
  ok: boolean
  at: string
  ms: number
  error?: string
}

async function loadAll(sources: string[], options: SourceOptions): Promise<SanctionsList[]> {
  const lists = (await Promise.all(sources.map((source) => loadSanctionsSource(source, options)))).flat()
  const names = lists.map((l) => l.name)
  const twice = names.find((name, i) => names.indexOf(name) !== i)
  if (twice) throw new Error(`two sources hold the list ${twice}`)
  return lists
}
