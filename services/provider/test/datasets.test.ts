import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadDatasets } from '../src/datasets/load-datasets'
import { loadOfacCsv } from '../src/datasets/load-ofac-csv'
import { loadSanctionsJsonl } from '../src/datasets/load-jsonl'
import { referenceData } from './support-data'

describe('OFAC legacy CSV loader', () => {
  const sdn2021 = loadOfacCsv(referenceData('ofac-sdn-2021'))

  it('reads every entry of the 2021 list with its aliases and address countries', () => {
    expect(sdn2021).toHaveLength(8976)
    const bnc = sdn2021.find((e) => e.id === '306')
    expect(bnc).toMatchObject({ name: 'BANCO NACIONAL DE CUBA', type: 'entity', programs: ['CUBA'] })
    expect(bnc?.aliases).toContain('NATIONAL BANK OF CUBA')
    expect(bnc?.countries).toEqual(expect.arrayContaining(['CH', 'ES']))
    expect(bnc?.remarks).toBe("a.k.a. 'BNC'.")
  })

  it('reads "-0-" as empty and types individuals, vessels and aircraft', () => {
    expect(sdn2021.filter((e) => e.type === 'individual').length).toBeGreaterThan(3000)
    expect(sdn2021.some((e) => e.type === 'vessel')).toBe(true)
    expect(sdn2021.every((e) => !e.programs.includes('-0-') && e.remarks !== '-0-')).toBe(true)
  })

  it('decodes Latin-1 bytes (the real files happen to be plain ASCII)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pf-ofac-'))
    const row = '1,"MUÑOZ, José",individual,"[SDGT] [IRGC]",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- \r\n'
    writeFileSync(join(dir, 'sdn.csv'), Buffer.concat([Buffer.from(row, 'latin1'), Buffer.from([0x1a])]))
    expect(loadOfacCsv(dir)).toEqual([
      expect.objectContaining({
        id: '1',
        name: 'MUÑOZ, José',
        type: 'individual',
        programs: ['SDGT', 'IRGC'],
        remarks: null,
      }),
    ])
  })

  it('reads the 2024 list, which ends with a 0x1A byte, without a phantom entry', () => {
    const sdn2024 = loadOfacCsv(referenceData('ofac-sdn-2024'))
    expect(sdn2024).toHaveLength(14965)
    expect(sdn2024.at(-1)?.name).not.toContain(String.fromCharCode(0x1a))
  })
})

describe('loadDatasets', () => {
  it('loads the company-register CSVs, normalising countries to ISO codes', () => {
    const { companies, sources } = loadDatasets(referenceData('companies-cc0'))
    expect(companies).toHaveLength(8000)
    expect(sources.map((s) => s.file)).toContain('amsterdam.csv') // blank first header cell
    const countries = new Set(companies.map((c) => c.country))
    expect(countries).toEqual(new Set(['NL', 'DE', 'GB', 'US', 'ES', 'FR', 'IT', 'AU']))
    expect(companies.find((c) => c.name === 'Bp P.L.C.')).toMatchObject({ country: 'GB', city: 'London' })
  })

  it('loads the bundled sample (JSON Lines)', () => {
    const { companies, sanctions } = loadDatasets(join(__dirname, '..', 'data', 'sample'))
    expect(companies.length).toBeGreaterThan(1000)
    expect(sanctions.length).toBeGreaterThan(100)
  })

  it('says which line is broken in a JSON Lines file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pf-data-'))
    writeFileSync(join(dir, 'sanctions.jsonl'), '{"id":"1","name":"A"}\nnot json\n')
    expect(() => loadSanctionsJsonl(join(dir, 'sanctions.jsonl'))).toThrow(
      'sanctions.jsonl line 2 is not JSON',
    )
  })

  it('refuses a folder without any dataset', () => {
    expect(() => loadDatasets(mkdtempSync(join(tmpdir(), 'pf-empty-')))).toThrow(/no dataset found/)
  })
})
