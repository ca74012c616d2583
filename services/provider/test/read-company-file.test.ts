import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createCleanup } from '@pf/testkit'
import {
  readCompanyFile,
  type CompanyFileFormat,
  type CompanyRow,
} from '../src/companies/import/read-company-file'
import { loadCompanydataCsv } from '../src/datasets/load-companydata-csv'
import { loadCompaniesJsonl } from '../src/datasets/load-jsonl'
import { referenceData } from './support-data'

const cleanup = createCleanup(afterAll)
const folder = mkdtempSync(join(tmpdir(), 'pf-company-file-'))
cleanup.defer(() => rmSync(folder, { recursive: true, force: true }))

async function readAll(path: string, format: CompanyFileFormat, maxLineBytes = 1024 * 1024) {
  const read = { lines: 0 }
  const rows: CompanyRow[] = []
  for await (const batch of readCompanyFile(path, format, { firstNumber: 0, read, maxLineBytes }))
    rows.push(...batch)
  const companies = rows.flatMap((row) => ('company' in row ? [row.company] : []))
  const rejected = rows.flatMap((row) => ('rejected' in row ? [row] : []))
  return { companies, rejected, lines: read.lines }
}

const write = (name: string, content: string | Buffer) => {
  const path = join(folder, name)
  writeFileSync(path, content)
  return path
}

describe('import-companies reads the records the in-memory load reads (both stores hold the same companies)', () => {
  const registers = readdirSync(referenceData('companies-cc0')).filter((file) => file.endsWith('.csv'))

  it.each(registers)(
    'the CC0 register %s: the same companies as csv-parse gives, every line counted',
    async (file) => {
      const path = referenceData('companies-cc0', file)
      const { companies, rejected, lines } = await readAll(path, 'csv')
      expect(rejected).toEqual([])
      expect(companies).toEqual(loadCompanydataCsv(path))
      expect(lines).toBe(1001)
    },
  )

  it('a CSV with every quoting the format allows: CRLF, quoted ";", doubled quotes, a field over two lines', async () => {
    const path = write(
      'quoting.csv',
      [
        '\uFEFFID;Company Name;City;Country;Business Category Code 1 - Description;Country',
        '1;"Semi;Colon ""Quoted"" GmbH";Berlin;Germany;"Two\r\nLines";Germany',
        '2;Plain Ltd;;;;United Kingdom',
        '',
        '3;"";Paris;France;none;France',
        '4;Fewer Fields SA',
        '5;More Fields BV;Amsterdam;NL;Banks;NL;extra;extra',
        '"6";"""Leading"" Quote";"";Italy;"";"Italy"',
        '',
      ].join('\r\n'),
    )
    const { companies, rejected, lines } = await readAll(path, 'csv')
    expect(companies).toEqual(loadCompanydataCsv(path))
    expect(companies.map((c) => [c.id, c.name, c.country, c.industry])).toEqual([
      ['1', 'Semi;Colon "Quoted" GmbH', 'DE', 'Two\r\nLines'],
      ['2', 'Plain Ltd', 'GB', null],
      ['4', 'Fewer Fields SA', null, null],
      ['5', 'More Fields BV', 'NL', 'Banks'],
      ['6', '"Leading" Quote', 'IT', null],
    ])
    // The row without a name is refused (the in-memory load leaves it out); the blank lines are not.
    expect(rejected).toEqual([{ line: 6, lines: 1, rejected: 'no Company Name' }])
    expect(lines).toBe(9)
  })

  it('the sample JSON Lines: the same companies as the in-memory load', async () => {
    const path = join(__dirname, '..', 'data', 'sample', 'companies.jsonl')
    const { companies, rejected } = await readAll(path, 'jsonl')
    expect(rejected).toEqual([])
    expect(companies).toEqual(loadCompaniesJsonl(path))
  })
})

describe('what import-companies refuses, by line', () => {
  it('a stray quote: the record runs to the next quote, every line of it refused with it', async () => {
    const path = write(
      'stray.csv',
      ['ID;Company Name', '1;One', '2;"Two', '3;Three', '4;"Four";x', '5;Five'].join('\n'),
    )
    const { companies, rejected } = await readAll(path, 'csv')
    expect(companies.map((c) => c.id)).toEqual(['1', '5'])
    expect(rejected).toEqual([
      {
        line: 3,
        lines: 3,
        rejected: 'a quote opened here runs to line 5, where a quoted field is followed by "F", not ";"',
      },
    ])
  })

  it('a quote never closed: every line to the end of the file', async () => {
    const path = write('unclosed.csv', ['ID;Company Name', '1;One', '2;"Two', '3;Three', '4;Four'].join('\n'))
    const { rejected } = await readAll(path, 'csv')
    expect(rejected).toEqual([{ line: 3, lines: 3, rejected: 'a quote opened here is never closed' }])
  })

  it('a quote inside an unquoted field, as csv-parse refuses it', async () => {
    const path = write('inner.csv', ['ID;Company Name', '1;Twelve " Pipes', '2;Two'].join('\n'))
    const { companies, rejected } = await readAll(path, 'csv')
    expect(companies.map((c) => c.id)).toEqual(['2'])
    expect(rejected).toEqual([{ line: 2, lines: 1, rejected: 'a quote inside an unquoted field' }])
  })

  it('a record over several lines past --max-line-bytes, and a line past it: refused, its lines counted', async () => {
    const long = 'x'.repeat(1500)
    const path = write(
      'long.csv',
      [
        'ID;Company Name',
        `1;"${long}`,
        long,
        `${long}";y`,
        '2;Two',
        `3;${long}${long}${long}`,
        '4;Four',
      ].join('\n'),
    )
    const { companies, rejected } = await readAll(path, 'csv', 4096)
    expect(companies.map((c) => c.id)).toEqual(['2', '4'])
    expect(rejected).toEqual([
      { line: 2, lines: 3, rejected: 'a record longer than 4096 bytes (--max-line-bytes)' },
      { line: 6, lines: 1, rejected: 'the line is longer than 4096 bytes (--max-line-bytes)' },
    ])
  })

  it('a header without "Company Name": the whole file, each of its lines', async () => {
    const path = write('tabs.csv', ['ID\tCompany Name', '1\tOne', '2\tTwo', ''].join('\n'))
    const { companies, rejected } = await readAll(path, 'csv')
    expect(companies).toEqual([])
    expect(rejected).toEqual([
      {
        line: 1,
        lines: 3,
        rejected: 'the header: no "Company Name" column and no ";" (a company-register CSV is ";"-separated)',
      },
    ])
  })

  it('bytes that are not UTF-8 refuse their line only', async () => {
    const path = write(
      'mixed.jsonl',
      Buffer.concat([
        Buffer.from('{"name":"Good One"}\n{"name":"Bad '),
        Buffer.from([0xc3, 0x28]),
        Buffer.from('"}\n{"name":"Good Two"}'),
      ]),
    )
    const { companies, rejected } = await readAll(path, 'jsonl')
    expect(companies.map((c) => c.name)).toEqual(['Good One', 'Good Two'])
    expect(rejected).toEqual([{ line: 2, lines: 1, rejected: 'not UTF-8 (--encoding names another)' }])
  })
})
