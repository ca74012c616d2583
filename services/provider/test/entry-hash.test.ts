import type { ListedName, SanctionEntry } from '../src/datasets/records'
import type { NameKind } from '../src/matching/name-weight'
import { entryHash, partyHash } from '../src/watches/entry-hash'

const entry: SanctionEntry = {
  id: '1',
  name: 'IVAN PETROV',
  type: 'individual',
  programs: ['RUSSIA-EO14024'],
  aliases: ['Ivan Petrov', 'I. PETROV'],
  countries: ['RU'],
  remarks: 'Director.',
  source: 'sdn.csv',
  birthDates: ['1970'],
}

describe('entryHash (issue 40: "the entry changes" means its entry hash changes)', () => {
  it('changes with a name, an alias, the type, a date of birth, a country or a program', () => {
    const changed: Partial<SanctionEntry>[] = [
      { name: 'IVAN PETROFF' },
      { aliases: ['Ivan Petrov'] },
      { type: 'entity' },
      { birthDates: ['1971'] },
      { countries: ['BY'] },
      { nationalities: ['RU'] },
      { programs: ['UKRAINE-EO13661'] },
    ]
    for (const change of changed) expect(entryHash({ ...entry, ...change })).not.toBe(entryHash(entry))
  })

  it("changes when a name's kind changes: a weak alias scores lower, so it decides a match", () => {
    const names = (weak: NameKind): ListedName[] => [
      { name: 'IVAN PETROV', kind: 'primary', script: 'Latn' },
      { name: 'Ivan Petrov', kind: 'alias', script: 'Latn' },
      { name: 'I. PETROV', kind: weak, script: 'Latn' },
    ]
    const listed = { ...entry, names: names('weak-alias') }
    const strengthened = { ...entry, names: names('alias') }
    expect(entryHash(strengthened)).not.toBe(entryHash(listed))
  })

  it('stays when only remarks, the source file or the order of aliases change', () => {
    const same = {
      ...entry,
      remarks: 'Reworded.',
      source: 'sdn-2.csv',
      aliases: [...entry.aliases].reverse(),
    }
    expect(entryHash(same)).toBe(entryHash(entry))
  })

  it('of a party is that of its one entry, and does not depend on the order of several', () => {
    const other = { ...entry, id: 'unsc-1', list: 'un-sc-consolidated' }
    expect(partyHash([entry])).toBe(entryHash(entry))
    expect(partyHash([entry, other])).toBe(partyHash([other, entry]))
  })
})
