// `pnpm bench` for the provider's searches (in-process; the data comes from data/reference and the generator).
import { benchAgreement } from './agreement.bench'
import { benchCompanies } from './companies.bench'
import { benchPostgres } from './postgres.bench'
import { benchPrecision } from './precision.bench'
import { benchRescreen } from './rescreen.bench'
import { benchSanctions } from './sanctions.bench'
import { benchScale } from './scale.bench'
import { benchScripts } from './scripts.bench'
import { benchWatches } from './watches.bench'

// BENCH_ONLY=<name> runs one bench alone: scripts, agreement, precision, sanctions, scale, companies, postgres,
// rescreen or watches (BENCH_PG_RECORDS sets the PostgreSQL bench's size, BENCH_RESCREEN_SUBJECTS the
// re-screen's, BENCH_WATCH_SUBJECTS the watches').
async function main() {
  const only = process.env.BENCH_ONLY
  const run = (name: string) => !only || only === name
  const rows = [
    ...(run('scripts') ? await benchScripts() : []),
    ...(run('agreement') ? await benchAgreement() : []),
    ...(run('precision') ? await benchPrecision() : []),
    ...(run('sanctions') ? benchSanctions() : []),
    ...(run('scale') ? await benchScale() : []),
    ...(run('companies') ? benchCompanies() : []),
    ...(run('postgres') ? await benchPostgres() : []),
    ...(run('rescreen') ? await benchRescreen() : []),
    ...(run('watches') ? await benchWatches() : []),
  ]
  console.log('\n@pf/provider benchmarks')
  console.table(rows)
}

void main()
