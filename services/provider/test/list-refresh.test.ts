import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SanctionsLists } from '../src/lists/sanctions-lists'
import { referenceData } from './support-data'
import { copyOf, listOptions, listsWorld } from './support-lists'

// OpenSanctions deltas applied in version order without reading the export again, and malformed files of every
// format refused whole, naming the file and the position (issue 25, "Lists").
const world = listsWorld()
const VERSIONS = [
  '20240527134702-zbn',
  '20240527194702-wnk',
  '20240528014702-pfh',
  '20240528074703-npf',
  '20240528134729-3iv',
]
const delta = (version: string) => referenceData('opensanctions-ftm', 't2-deltas', `${version}.delta.json`)

/** An OpenSanctions dataset folder: the export (at version zbn) and a delta index listing `versions`. */
function dataset() {
  const dir = join(mkdtempSync(join(tmpdir(), 'pf-os-')), 'os-sanctions')
  mkdirSync(join(dir, 'deltas'), { recursive: true })
  copyFileSync(referenceData('opensanctions-ftm', 'entities.ftm.json'), join(dir, 'entities.ftm.json'))
  const publish = (...versions: string[]) => {
    for (const version of versions.filter((v) => v !== VERSIONS[0] && VERSIONS.includes(v)))
      copyFileSync(delta(version), join(dir, 'deltas', `${version}.delta.json`))
    const index = Object.fromEntries(versions.map((v) => [v, `https://example.org/${v}/entities.delta.json`]))
    writeFileSync(join(dir, 'deltas', 'index.json'), JSON.stringify({ versions: index }))
  }
  return { dir, publish }
}

describe('OpenSanctions deltas (ADD, MOD, DEL in version order from the versions index)', () => {
  it('applies each new version on refresh, shows it on /api/lists, and keeps the previous index when one fails', async () => {
    const { dir, publish } = dataset()
    publish(VERSIONS[0]!)
    const exportFile = join(dir, 'entities.ftm.json')
    const stamp = new Date('2024-05-27T13:47:02Z')
    utimesSync(exportFile, stamp, stamp)
    const os = await world.start([join(dir, 'entities.ftm.json')])
    const version = async () => (await os.listsNow()).lists[0]
    expect(await version()).toMatchObject({ name: 'os-sanctions', version: VERSIONS[0], records: 6 })
    expect(await os.hits({ name: 'Janan Agha' })).toEqual([])

    publish(...VERSIONS.slice(0, 2))
    expect(await os.lists.refresh()).toMatchObject({ ok: true })
    expect(await version()).toMatchObject({ version: VERSIONS[1], records: 8 })
    const [agha] = await os.hits({ name: 'Janan Agha' })
    expect(agha).toMatchObject({
      id: 'NK-2sJaJRaPJcWUfMbHjTtWcL',
      lists: [{ name: 'os-sanctions', version: VERSIONS[1] }],
    })

    // The export is not read again: all but its first line (which tells its format) overwritten with garbage of
    // the same size, its time stamp restored, changes nothing.
    const bytes = readFileSync(exportFile)
    bytes.fill(0x7b, bytes.indexOf(0x0a) + 1)
    writeFileSync(exportFile, bytes)
    utimesSync(exportFile, stamp, stamp)
    publish(...VERSIONS)
    const refreshed = await os.lists.refresh()
    expect(refreshed.error).toBeUndefined()
    expect(await version()).toMatchObject({ version: VERSIONS[4], records: 9 })
    // pfh changed NK-2T3S8H… (MOD) and added NK-500Poltergeist, npf deleted it (DEL), 3iv added Plotnikov.
    expect(await os.hits({ name: 'Foobar Foobargroup' })).toEqual([
      expect.objectContaining({ id: 'NK-2T3S8Hu29ktYnKSTgQp2wL' }),
    ])
    expect(await os.hits({ name: 'Al-Qaida in Iraq', threshold: 95 })).toEqual([])
    expect(await os.hits({ name: 'Vladimir Plotnikov' })).toEqual([
      expect.objectContaining({ id: 'Q4365364' }),
    ])
    const applied = await version()

    const broken = '20240529000000-bad'
    writeFileSync(
      join(dir, 'deltas', `${broken}.delta.json`),
      '{"op": "DEL", "entity": {"id": "Q4365364"}}\n{"op": "ADD", "ent',
    )
    publish(...VERSIONS, broken)
    const outcome = await os.lists.refresh()
    expect(outcome).toMatchObject({
      ok: false,
      error: expect.stringMatching(/20240529000000-bad\.delta\.json line 2: not JSON/),
    })
    expect(await version()).toEqual(applied)
    expect(await os.hits({ name: 'Vladimir Plotnikov' })).toHaveLength(1)
  })

  it('applies at start every delta whose file is present after the export (yente t2: 4 ADD, 1 MOD, 1 DEL)', async () => {
    const lists = await SanctionsLists.load(
      [join(copyOf('opensanctions-ftm'), 'opensanctions-ftm')],
      listOptions,
    )
    expect(lists.current().lists.map(({ name, version, records }) => ({ name, version, records }))).toEqual([
      { name: 'opensanctions-ftm', version: VERSIONS[4], records: 9 },
      { name: 'zala', version: expect.stringMatching(/^[0-9a-f]{64}$/), records: 17 },
    ])
  })

  it('refuses an index naming a version after the applied ones whose delta file is missing', async () => {
    const { dir, publish } = dataset()
    publish(...VERSIONS.slice(0, 3))
    writeFileSync(
      join(dir, 'deltas', 'index.json'),
      JSON.stringify({
        versions: Object.fromEntries([...VERSIONS, '20240530000000-zzz'].map((v) => [v, ''])),
      }),
    )
    await expect(SanctionsLists.load([dir], listOptions)).rejects.toThrow(
      /index\.json: version 20240528074703-npf has no delta file/,
    )
  })
})

const truncate = (file: string, bytes: number) =>
  readFileSync(referenceData(...file.split('/'))).subarray(0, bytes)
// A malformed file of every format, and the file and position the error must name.
const MALFORMED: [format: string, file: string, content: Buffer | string, message: RegExp][] = [
  [
    'UN XML cut short',
    'consolidated.xml',
    truncate('un-consolidated/consolidated.xml', 100_000),
    /consolidated\.xml line 2366:4: unclosed tag: TITLE/,
  ],
  [
    'UN XML with a record without REFERENCE_NUMBER',
    'consolidated.xml',
    '<CONSOLIDATED_LIST>\n<INDIVIDUALS>\n<INDIVIDUAL><FIRST_NAME>A</FIRST_NAME></INDIVIDUAL>\n</INDIVIDUALS></CONSOLIDATED_LIST>',
    /consolidated\.xml line 3:\d+: a record without REFERENCE_NUMBER/,
  ],
  [
    'CSL with an unclosed quote',
    'csl.csv',
    'source,name,alt_names\nA (X),B,\nA (X),"C,\n',
    /csl\.csv line 3: Quote Not Closed/,
  ],
  [
    'CSL with a short row',
    'csl.csv',
    'source,name,alt_names\nA (X),B,\nA (X),C\n',
    /csl\.csv line 3: Invalid Record Length/,
  ],
  [
    'CSL that is not UTF-8',
    'csl.csv',
    Buffer.concat([Buffer.from('source,name,alt_names\nA (X),B'), Buffer.from([0xe9]), Buffer.from(',\n')]),
    /csl\.csv byte 29: not UTF-8/,
  ],
  [
    'DPL with an unclosed quote',
    'dpl.txt',
    '"Name"\t"Street_Address"\t"Country"\t"FR_Citation"\n"A"\t"B"\t"US"\t"C"\n"D\t"E"\t"US"\t"F"\n',
    /dpl\.txt line 3: /,
  ],
  [
    'FtM with a line that is not JSON',
    'entities.ftm.json',
    '{"id": "a", "schema": "Person", "properties": {"name": ["A"]}}\n{"id": "b", "sch',
    /entities\.ftm\.json line 2: not JSON/,
  ],
  [
    'FtM with an entity without properties',
    'entities.ftm.json',
    '{"id": "a", "schema": "Person", "properties": {"name": ["A"]}}\n{"id": "b", "schema": "Person"}\n',
    /entities\.ftm\.json line 2: entity b has no properties/,
  ],
]

describe('a malformed file of any format: an error naming the file and the position, never a partial index', () => {
  it.each(MALFORMED)('%s is refused at start', async (_case, file, content, message) => {
    const path = join(mkdtempSync(join(tmpdir(), 'pf-bad-')), file)
    writeFileSync(path, content)
    await expect(SanctionsLists.load([path], listOptions)).rejects.toThrow(message)
  })

  it.each(MALFORMED)('%s at a refresh keeps the previous index', async (_case, file, content, message) => {
    const good: Record<string, string> = {
      'consolidated.xml': 'un-consolidated/consolidated.xml',
      'csl.csv': 'us-csl/csl.csv',
      'dpl.txt': 'us-csl/dpl.txt',
      'entities.ftm.json': 'opensanctions-ftm/zala.ftm.json',
    }
    const path = join(mkdtempSync(join(tmpdir(), 'pf-bad-')), file)
    copyFileSync(referenceData(...good[file]!.split('/')), path)
    const provider = await world.start([path])
    const before = await provider.listsNow()
    writeFileSync(path, content)
    expect(await provider.lists.refresh()).toMatchObject({ ok: false, error: expect.stringMatching(message) })
    expect((await provider.listsNow()).lists).toEqual(before.lists)
  })
})
