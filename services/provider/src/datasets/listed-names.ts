import { detectScript } from '../matching/detect-script'
import { foldText } from '../matching/fold-text'
import type { ListedName, NameKind, SanctionEntry } from './records'

/** Every name of an entry with its kind, quality and script: the primary name first, then `aliases` in order. */
export function listedNames(entry: SanctionEntry): ListedName[] {
  if (entry.names) return entry.names
  return [entry.name, ...entry.aliases].map((_, i) => listedName(entry, i))
}

/** `listedNames(entry)[index]`, the others left alone (a hit explains one name of its entry). */
export function listedName(entry: SanctionEntry, index: number): ListedName {
  if (entry.names) return entry.names[index] as ListedName
  const name = index === 0 ? entry.name : (entry.aliases[index - 1] as string)
  return { name, kind: index === 0 ? 'primary' : 'alias', script: detectScript(name) }
}

/** A name a loader found, before it is checked and kept. */
export interface FoundName {
  name: string | null | undefined
  kind: NameKind
  quality?: string
}

// When one name is listed as several kinds, the stronger kind is kept ("Low" twice and "Good" once is Good).
const STRENGTH: Record<NameKind, number> = {
  primary: 0,
  alias: 1,
  previous: 2,
  'original-script': 3,
  'weak-alias': 4,
}

/**
 * `name`, `aliases` and `names` of an entry from the names its list gives, the first primary one as its name:
 * blank names dropped, each name once (compared folded, the stronger kind kept), trimmed, with its script.
 * Undefined when no name is left.
 */
export function namesOf(
  found: readonly FoundName[],
): Pick<SanctionEntry, 'name' | 'aliases' | 'names'> | undefined {
  const kept = new Map<string, ListedName>()
  const ordered = [...found].sort((a, b) => STRENGTH[a.kind] - STRENGTH[b.kind])
  for (const { name, kind, quality } of ordered) {
    const text = name?.replace(/\s+/g, ' ').trim()
    if (!text) continue
    const key = foldText(text)
    if (kept.has(key)) continue
    kept.set(key, { name: text, kind, ...(quality ? { quality } : {}), script: detectScript(text) })
  }
  const names = [...kept.values()]
  const [first] = names
  if (!first) return undefined
  // The best name leads, as the primary one, whatever its kind was (an entity listed by aliases only).
  names[0] = { ...first, kind: 'primary' }
  return { name: first.name, aliases: names.slice(1).map((n) => n.name), names }
}
