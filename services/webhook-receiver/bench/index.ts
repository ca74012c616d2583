// `pnpm bench` for the webhook receiver and its worker (run after `pnpm build`).
import { benchReceiver } from './receiver.bench'
import { benchTracing } from './tracing.bench'
import { benchWorker } from './worker.bench'

async function main() {
  const seconds = Number(process.argv[2] ?? 10)
  // `pnpm bench -- tracing [seconds]`: the tracing comparison alone.
  if (process.argv[2] === 'tracing') {
    console.table(await benchTracing(Number(process.argv[3] ?? 10)))
    return
  }
  const rows = [...(await benchReceiver(seconds)), ...(await benchWorker()), ...(await benchTracing(seconds))]
  console.log('\n@pf/webhook-receiver benchmarks')
  console.table(rows)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
