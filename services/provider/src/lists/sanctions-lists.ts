import type { Logger } from '@pf/service-kit'
import { SanctionsIndex } from '../screening/sanctions-index'
import {
  checkListCounts,
  DEFAULT_MIN_SHARE,
  ListCountError,
  splitAllowEmpty,
  type CountedList,
  type ListRefusal,
} from './check-list-counts'
import { cutLongNames, DEFAULT_MAX_NAME_LENGTH } from './cut-long-names'
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

/** How lists are loaded: each source within `SourceOptions`, then checked (`checkListCounts`) and cut. */
export interface ListsOptions extends SourceOptions {
  logger: Logger
  /** `SANCTIONS_MIN_SHARE` (default 0.5). */
  minShare?: number
  /** `SANCTIONS_MAX_NAME_LENGTH` (default `DEFAULT_MAX_NAME_LENGTH`). */
  maxNameLength?: number
}

/**
 * The sanctions lists the provider screens against. `refresh()` loads every source, builds the new index beside
 * the one in use and swaps them in one assignment; when any source fails, or a list would shrink below
 * `minShare` of the records it holds (`checkListCounts`), the previous index stays in use (and the failure is
 * logged and reported). Refreshes never overlap. Names past `maxNameLength` are cut at load (`cutLongNames`).
 */
export class SanctionsLists {
  private snapshot: ListsSnapshot
  private running: Promise<RefreshOutcome> | undefined
  lastRefresh: RefreshOutcome | undefined

  private constructor(
    private readonly sources: string[],
    private readonly options: ListsOptions,
    first: ListsSnapshot,
  ) {
    this.snapshot = first
  }

  /**
   * Loads the sources once; rejects when one fails, or when a list is empty and its source is not marked
   * `allow-empty:` (at start, there is no previous index to keep).
   */
  static async load(sources: string[], options: ListsOptions): Promise<SanctionsLists> {
    // One memory of the OpenSanctions lists for every refresh: their deltas apply to what was read.
    const kept = { ...options, ftm: options.ftm ?? new FtmLists() }
    return new SanctionsLists(sources, kept, snapshotOf(await loadChecked(sources, kept, new Map())))
  }

  /** A fixed set, for tests and for engines built from datasets (names cut at the default length). */
  static of(lists: SanctionsList[], logger: Logger): SanctionsLists {
    const cut = lists.map((list) => cutLongNames(list, DEFAULT_MAX_NAME_LENGTH).list)
    return new SanctionsLists([], { timeoutMs: 0, maxBytes: 0, logger }, snapshotOf(cut))
  }

  current(): ListsSnapshot {
    return this.snapshot
  }

  refresh(): Promise<RefreshOutcome> {
    this.running ??= (async (): Promise<RefreshOutcome> => {
      const started = performance.now()
      try {
        const held = new Map(this.snapshot.lists.map(({ name, records }) => [name, records]))
        const next = snapshotOf(await loadChecked(this.sources, this.options, held))
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
        const refused = error instanceof ListCountError ? { refused: error.refusals } : {}
        this.options.logger.error(
          { err: { message }, ...refused },
          'sanctions lists refresh failed; the previous lists stay in use',
        )
        return {
          ok: false,
          at: new Date().toISOString(),
          ms: Math.round(performance.now() - started),
          error: message,
          ...refused,
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
  /** The lists refused for their counts (`checkListCounts`). */
  refused?: ListRefusal[]
}

/**
 * Every source's lists, refused whole when one breaks a count rule against `held` (records by list name; empty
 * at start), each list's names cut to `maxNameLength` (logged as a warning).
 */
async function loadChecked(
  sources: string[],
  options: ListsOptions,
  held: ReadonlyMap<string, number>,
): Promise<SanctionsList[]> {
  const lists: (SanctionsList & Pick<CountedList, 'allowEmpty'>)[] = []
  // One at a time: a list's parse holds memory until its entries are built.
  for (const item of sources) {
    const { source, allowEmpty } = splitAllowEmpty(item)
    for (const list of await loadSanctionsSource(source, options)) lists.push({ ...list, allowEmpty })
  }
  const names = lists.flatMap((l) => [l.name, ...(l.sublists?.map((s) => s.name) ?? [])])
  const twice = names.find((name, i) => names.indexOf(name) !== i)
  if (twice) throw new Error(`two sources hold the list ${twice}`)
  const refused = checkListCounts(lists, held, options.minShare ?? DEFAULT_MIN_SHARE)
  if (refused.length > 0) throw new ListCountError(refused)
  const limit = options.maxNameLength ?? DEFAULT_MAX_NAME_LENGTH
  return lists.map(({ allowEmpty: _allowEmpty, ...loaded }) => {
    const { list, longest } = cutLongNames(loaded, limit)
    if (list.namesCut > 0)
      options.logger.warn(
        { list: list.name, namesCut: list.namesCut, longest, limit },
        'listed names longer than SANCTIONS_MAX_NAME_LENGTH cut at a word boundary (their entries stay screenable)',
      )
    return list
  })
}
