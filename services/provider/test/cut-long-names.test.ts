import type { SanctionEntry } from '../src/datasets/records'
import { cutLongNames, cutName } from '../src/lists/cut-long-names'
import { sanctionsList } from '../src/lists/sanctions-list'

// SANCTIONS_MAX_NAME_LENGTH (issue 35): a listed name past the limit is cut at a word boundary, never left out.
describe('cutName(name, max)', () => {
  it.each([
    ['a name within the limit is kept whole', 'BANK OF EXAMPLE', 15, 'BANK OF EXAMPLE'],
    ['cut before the word that would cross the limit', 'BANK OF EXAMPLE', 10, 'BANK OF'],
    ['a space right at the limit keeps every word before it', 'BANK OF EXAMPLE', 7, 'BANK OF'],
    ['any white space is a word boundary (a tab, a no-break space)', 'BANK\tOF\u00a0EXAMPLE', 9, 'BANK\tOF'],
    ['one word longer than half the limit is cut at the limit', 'A BANKOFEXAMPLE', 10, 'A BANKOFEX'],
    ['never between the halves of a surrogate pair', 'ABCDEFGHI😀Z', 10, 'ABCDEFGHI'],
  ])('%s', (_case, name, max, cut) => {
    expect(cutName(name, max)).toBe(cut)
    expect(cutName(name, max).length).toBeLessThanOrEqual(max)
  })
})

describe('cutLongNames(list, max)', () => {
  const entry = (id: string, name: string, aliases: string[] = []): SanctionEntry => ({
    id,
    name,
    type: 'entity',
    programs: [],
    aliases,
    countries: [],
    remarks: null,
    source: 'test',
    names: [name, ...aliases].map((text, i) => ({
      name: text,
      kind: i === 0 ? 'primary' : 'alias',
      script: 'Latn',
    })),
  })
  const fields = { name: 'watch', format: 'jsonl', source: '/lists/watch.jsonl', sha256: 'ab'.repeat(32) }

  it('cuts every name and alias past the limit (their listed forms too), counts them, and keeps every entry', () => {
    const long = `${'WORD '.repeat(100)}END`
    const original = [entry('A', long, ['SHORT', long]), entry('B', 'QUIRINUS ABERNATHY')]
    const { list, longest } = cutLongNames(sanctionsList(fields, original), 300)
    expect(longest).toBe(long.length)
    expect(list.namesCut).toBe(2)
    expect(list.records).toBe(2)
    const [a, b] = list.entries
    expect(a).toMatchObject({ id: 'A', name: cutName(long, 300), aliases: ['SHORT', cutName(long, 300)] })
    expect(a!.names!.map((n) => n.name)).toEqual([a!.name, ...a!.aliases])
    expect(a!.name.length).toBeLessThanOrEqual(300)
    // Copied, never changed: an OpenSanctions list keeps its entries between refreshes.
    expect(original[0]!.name).toBe(long)
    expect(b).toBe(original[1])
  })

  it('gives back the list itself when no name is past the limit', () => {
    const list = sanctionsList(fields, [entry('B', 'QUIRINUS ABERNATHY')])
    expect(cutLongNames(list, 300)).toEqual({ list, longest: 18 })
    expect(list.namesCut).toBe(0)
  })
})
