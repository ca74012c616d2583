import { closeSync, existsSync, openSync, readdirSync, readSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import { isCompanydataCsv, loadCompanydataCsv } from './load-companydata-csv'
import { loadCompaniesJsonl, loadSanctionsJsonl } from './load-jsonl'
import { loadOfacCsv } from './load-ofac-csv'
import type { Datasets } from './records'

function firstLine(path: string): string {
  const fd = openSync(path, 'r')
  try {
    const buffer = Buffer.alloc(4096)
    const read = readSync(fd, buffer, 0, buffer.length, 0)
    return buffer.subarray(0, read).toString('utf8').split(/\r?\n/)[0] ?? ''
  } finally {
    closeSync(fd)
  }
}

/**
 * Loads every dataset in a folder, by file name and format:
 * - `sdn.csv` (+ `add.csv`, `alt.csv`): an OFAC SDN set → sanctions;
 * - `*sanctions*.jsonl` → sanctions; `*companies*.jsonl` → companies (this kit's JSON Lines);
 * - any other `*.csv` whose header is a company-register export (`;`, "Company Name") → companies.
 */
export function loadDatasets(dir: string): Datasets {
  // A relative folder is read from the working directory, which is not where a README's path may have assumed.
  const where = isAbsolute(dir) ? dir : `${dir} (${resolve(dir)}, relative to ${process.cwd()})`
  if (!existsSync(dir)) throw new Error(`data folder ${where} does not exist`)
  const datasets: Datasets = { companies: [], sanctions: [], sources: [] }
  const files = readdirSync(dir).sort()
  if (files.includes('sdn.csv')) {
    const entries = loadOfacCsv(dir)
    datasets.sanctions.push(...entries)
    datasets.sources.push({ file: 'sdn.csv', kind: 'sanctions', records: entries.length })
  }
  for (const file of files) {
    const path = join(dir, file)
    if (file.endsWith('.jsonl') && file.includes('sanctions')) {
      const entries = loadSanctionsJsonl(path)
      datasets.sanctions.push(...entries)
      datasets.sources.push({ file, kind: 'sanctions', records: entries.length })
    } else if (file.endsWith('.jsonl') && file.includes('companies')) {
      const companies = loadCompaniesJsonl(path)
      datasets.companies.push(...companies)
      datasets.sources.push({ file, kind: 'companies', records: companies.length })
    } else if (
      file.endsWith('.csv') &&
      !['sdn.csv', 'add.csv', 'alt.csv'].includes(file) &&
      isCompanydataCsv(firstLine(path))
    ) {
      const companies = loadCompanydataCsv(path, datasets.companies.length)
      datasets.companies.push(...companies)
      datasets.sources.push({ file, kind: 'companies', records: companies.length })
    }
  }
  if (datasets.sources.length === 0)
    throw new Error(
      `no dataset found in ${where}: a data folder holds OFAC CSV sets (sdn.csv), *sanctions*.jsonl, *companies*.jsonl or company-register CSVs; UN XML, US CSL, BIS DPL and OpenSanctions FtM lists come through SANCTIONS_SOURCES (services/provider/README.md, "Lists and how they refresh")`,
    )
  return datasets
}
