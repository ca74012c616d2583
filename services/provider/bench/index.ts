// `pnpm bench` for the provider's searches (in-process; the data comes from data/reference and the generator).
import { benchAgreement } from './agreement.bench'
import { benchCompanies } from './companies.bench'
import { benchSanctions } from './sanctions.bench'
import { benchScale } from './scale.bench'
import { benchScripts } from './scripts.bench'

async function main() {
  const rows = [
    ...(await benchScripts()),
    ...(await benchAgreement()),
    ...benchSanctions(),
    ...(await benchScale()),
    ...benchCompanies(),
  ]
  console.log('\n@pf/provider benchmarks')
  console.table(rows)
}

void main()
