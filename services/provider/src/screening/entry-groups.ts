import type { SanctionEntry } from '../datasets/records'

/**
 * Entries that are one party: those sharing an identifier of `sameAs` (an OpenSanctions id or one of its
 * `referents`, `ofac-<ent_num>`, `unsc-<DATAID>`), directly or through others. A screening answers one hit per
 * group, naming every list of its entries, so a party on five lists takes one place of `limit`, not five.
 */
export class EntryGroups {
  private constructor(
    /** The group of each entry: the index of its first entry. */
    private readonly groupOf: Int32Array,
    /** The entries of each group of more than one, in list order. */
    private readonly shared: ReadonlyMap<number, readonly number[]>,
  ) {}

  static build(entries: readonly SanctionEntry[]): EntryGroups {
    const parent = Int32Array.from(entries, (_, i) => i)
    const find = (i: number): number => {
      while (parent[i] !== i) i = parent[i] = parent[parent[i] as number] as number
      return i
    }
    const holder = new Map<string, number>()
    entries.forEach((entry, i) => {
      for (const key of entry.sameAs ?? []) {
        const other = holder.get(key)
        if (other === undefined) holder.set(key, i)
        else {
          const [a, b] = [find(other), find(i)]
          if (a !== b) parent[Math.max(a, b)] = Math.min(a, b)
        }
      }
    })
    const groupOf = Int32Array.from(entries, (_, i) => find(i))
    const shared = new Map<number, number[]>()
    // Only entries with identifiers can share a group.
    entries.forEach((entry, i) => {
      if (!entry.sameAs?.length) return
      const group = groupOf[i] as number
      const members = shared.get(group)
      if (members) members.push(i)
      else shared.set(group, [i])
    })
    for (const [group, members] of shared) if (members.length === 1) shared.delete(group)
    return new EntryGroups(groupOf, shared)
  }

  group(entry: number): number {
    return this.groupOf[entry] as number
  }

  /** The entries of an entry's group, itself included, in list order. */
  members(entry: number): readonly number[] {
    return this.shared.get(this.group(entry)) ?? [entry]
  }
}
