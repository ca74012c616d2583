import { createWriteStream } from 'node:fs'
import { once } from 'node:events'
import { generateRegistry, type RegistryCompany } from './registry-generator'

/** Writes `count` generated companies as JSON Lines; keeps every 1000th for the queries. */
export async function writeRegistry(path: string, count: number): Promise<RegistryCompany[]> {
  const out = createWriteStream(path)
  const samples: RegistryCompany[] = []
  let batch = ''
  let index = 0
  for (const company of generateRegistry(count)) {
    if (index++ % 1000 === 0) samples.push(company)
    batch += `${JSON.stringify(company)}\n`
    if (batch.length > 1 << 20) {
      if (!out.write(batch)) await once(out, 'drain')
      batch = ''
    }
  }
  out.end(batch)
  await once(out, 'finish')
  return samples
}
