import type { Queue } from 'bullmq'
import { withTimeout } from '@pf/service-kit'

/**
 * When the oldest job still waiting for a worker was stored (ms since the epoch), undefined when none waits. The
 * wait list is pushed on the left and taken from the right, so ascending order starts at the oldest.
 */
export async function oldestWaitingAt(queue: Queue, timeoutMs: number): Promise<number | undefined> {
  const [oldest] = await withTimeout(queue.getJobs(['wait'], 0, 0, true), timeoutMs, 'reading jobs')
  return oldest?.timestamp
}
