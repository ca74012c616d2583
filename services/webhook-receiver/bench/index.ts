// `pnpm bench` for the webhook receiver and its worker (run after `pnpm build`).
import { benchReceiver } from './receiver.bench'
import { benchTracing } from './tracing.bench'
import { benchWorker } from './worker.bench'

async function main() {
  // pnpm 10 hands the `--` of `pnpm bench -- tracing` on to the script: it is not an argument.
  const args = process.argv.slice(2).filter((arg) => arg !== '--')
  const seconds = Number(args[0] ?? 10)
  // `pnpm bench -- tracing [seconds]`: the tracing comparison alone.
  if (args[0] === 'tracing') {
    console.table(await benchTracing(Number(args[1] ?? 10)))
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
