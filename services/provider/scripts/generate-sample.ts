// Writes the provider's bundled sample (data/sample/*.jsonl): `pnpm --filter @pf/provider generate-sample`.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { generateCompanies, generateSanctions } from './sample-generator'

const dir = join(__dirname, '..', 'data', 'sample')
const lines = (records: Iterable<object>) => `${[...records].map((r) => JSON.stringify(r)).join('\n')}\n`
writeFileSync(join(dir, 'companies.jsonl'), lines(generateCompanies(2000)))
writeFileSync(join(dir, 'sanctions.jsonl'), lines(generateSanctions(300)))
console.log(`wrote ${dir}/companies.jsonl (2000) and sanctions.jsonl (300)`)
