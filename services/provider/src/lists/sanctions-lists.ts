import type { Logger } from '@pf/service-kit'
import { SanctionsIndex } from '../screening/sanctions-index'
import { FtmLists } from './ftm-lists'
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
  /** Every name `parameters.lists` may use (lists and sub-lists), with the screened names it stands for. */
  selectable: ReadonlyMap<string, readonly string[]>
  /** The version of each list and sub-list, by name, as hits name it. */
  versionOf: ReadonlyMap<string, string>
}

const snapshotOf = (lists: SanctionsList[]): ListsSnapshot => {
  const info = lists.map(({ entries: _entries, ...rest }) => rest)
  const selectable = new Map<string, string[]>()
  const versionOf = new Map<string, string>()
  for (const list of info) {
    const parts = list.sublists?.map((sub) => sub.name) ?? []
    selectable.set(list.name, [list.name, ...parts])
    versionOf.set(list.name, list.version)
    for (const part of parts) {
      selectable.set(part, [part])
      versionOf.set(part, list.version)
    }
  }
  return {
    index: SanctionsIndex.build(lists.flatMap((l) => l.entries)),
    lists: info,
    versions: info.map(({ name, sha256 }) => ({ name, sha256 })),
    selectable,
    versionOf,
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
    // One memory of the OpenSanctions lists for every refresh: their deltas apply to what was read.
    const kept = { ...options, ftm: options.ftm ?? new FtmLists() }
    return new SanctionsLists(sources, kept, snapshotOf(await loadAll(sources, kept)))
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
  const lists: SanctionsList[] = []
  // One at a time: a list's parse holds memory until its entries are built.
  for (const source of sources) lists.push(...(await loadSanctionsSource(source, options)))
  const names = lists.flatMap((l) => [l.name, ...(l.sublists?.map((s) => s.name) ?? [])])
  const twice = names.find((name, i) => names.indexOf(name) !== i)
  if (twice) throw new Error(`two sources hold the list ${twice}`)
  return lists
}
