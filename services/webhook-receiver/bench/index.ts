// `pnpm bench` for the webhook receiver and its worker (run after `pnpm build`).
import { benchDeadLetters } from './dead-letters.bench'
import { benchReceiver } from './receiver.bench'
import { benchReceiverInstructions } from './receiver-instructions.bench'
import { benchRedisInstructions } from './redis-instructions.bench'
import { benchShards } from './shards.bench'
import { benchTracing } from './tracing.bench'
import { benchWorker } from './worker.bench'

/** Quarantined events of 1 MB the dead-letter bench holds by default: 1 GB in Redis. */
const DEAD_LETTERS = 1000

async function main() {
  // pnpm 10 hands the `--` of `pnpm bench -- tracing` on to the script: it is not an argument.
  const args = process.argv.slice(2).filter((arg) => arg !== '--')
  const seconds = Number(args[0] ?? 10)
  // `pnpm bench -- tracing [seconds]`: the tracing comparison alone.
  if (args[0] === 'tracing') {
    console.table(await benchTracing(Number(args[1] ?? 10)))
    return
  }
  // `pnpm bench -- dead-letters [count]`: the dead-letter command's memory alone (count events of 1 MB).
  if (args[0] === 'dead-letters') {
    console.table(await benchDeadLetters(Number(args[1] ?? DEAD_LETTERS)))
    return
  }
  // `pnpm bench -- receiver [seconds]`: the receiver against the hello-world alone; `receiver-cpu [seconds]`
  // without the latency rounds.
  if (args[0] === 'receiver' || args[0] === 'receiver-cpu') {
    console.table(await benchReceiver(Number(args[1] ?? 10), { latency: args[0] === 'receiver' }))
    return
  }
  // `pnpm bench -- receiver-instructions`: the receiver's CPU target counted under valgrind (instructions).
  if (args[0] === 'receiver-instructions') {
    console.table(await benchReceiverInstructions())
    return
  }
  // `pnpm bench -- worker`: the worker against a bare BullMQ worker alone, with ordering off and on.
  if (args[0] === 'worker') {
    console.table(await benchWorker())
    return
  }
  // `pnpm bench -- redis-instructions`: Redis's instructions per job of each worker, under valgrind (counted).
  if (args[0] === 'redis-instructions') {
    console.table(await benchRedisInstructions())
    return
  }
  // `pnpm bench -- shards [seconds]`: 1 shard against 3 on a local 3-master Redis Cluster alone (a report).
  if (args[0] === 'shards') {
    console.table(await benchShards(Number(args[1] ?? 10)))
    return
  }
  const rows = [
    ...(await benchReceiver(seconds)),
    ...(await benchWorker()),
    ...(await benchTracing(seconds)),
    ...(await benchShards(seconds)),
    ...(await benchDeadLetters(DEAD_LETTERS)),
  ]
  console.log('\n@pf/webhook-receiver benchmarks')
  console.table(rows)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
