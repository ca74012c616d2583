// `pnpm bench` for the webhook receiver and its worker (run after `pnpm build`).
import { benchReceiver } from './receiver.bench'
import { benchWorker } from './worker.bench'

async function main() {
  const seconds = Number(process.argv[2] ?? 10)
  const rows = [...(await benchReceiver(seconds)), ...(await benchWorker())]
  console.log('\n@pf/webhook-receiver benchmarks')
  console.table(rows)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
