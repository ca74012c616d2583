import { join } from 'node:path'
import { startServiceProcess, type ServiceProcess } from '@pf/testkit'
import { postSigned, waitFor } from './support'

// What the failover tests share (redis-ha.test.ts, shards-cluster.test.ts): the built processes, and the
// platform's retries of what was refused while no master took writes.
const dist = join(__dirname, '..', 'dist')

/** Starts a built entry (`main.js`, `worker.js`) on a free port and adds it to `running` (stopped by the test). */
export async function startBuilt(
  running: ServiceProcess[],
  entry: string,
  env: Record<string, string>,
  readyMessage: string,
): Promise<ServiceProcess> {
  const service = await startServiceProcess({
    entry: join(dist, entry),
    env: { PATH: process.env.PATH, PORT: '0', LOG_LEVEL: 'info', ...env },
    readyMessage,
  })
  running.push(service)
  return service
}

/** Waits for `condition`, printing the receiver's last log lines and stderr if it never comes (a CI failure). */
export function waitSayingWhy(receiver: ServiceProcess, ...args: Parameters<typeof waitFor>): Promise<void> {
  return waitFor(...args).catch((error: unknown) => {
    process.stderr.write(`${JSON.stringify(receiver.logs.slice(-10))}\n${receiver.stderr()}\n`)
    throw error
  })
}

/**
 * The platform's retries of what was refused: once a master (and a replica to confirm) is back, each is
 * accepted or recognised as a duplicate; then each counts as acknowledged.
 */
export async function retryRefused(url: string, refused: string[], acknowledged: Set<string>): Promise<void> {
  for (const body of refused)
    await waitFor(async () => (await postSigned(url, body)).status === 200, 30_000, 'a retry to be accepted')
  for (const body of refused) acknowledged.add(JSON.parse(body).webhookId as string)
}
