import { Job, type IRedisTransaction, type JobsOptions, type Queue } from 'bullmq'

/**
 * Adds a job as `queue.add(name, data, opts)` does, by BullMQ's own script and client interface (which any
 * BullMQ 5 keeps; FlowProducer adds its jobs the same way), inside a MULTI that `andThen` extends with commands
 * of ours on the queue's keys: all of it happens, or none. Resolves with what BullMQ's add answered: the job's
 * id, or with `deduplication`, the marker of the job that already holds that dedup id.
 *
 * @example
 * await addJobInTransaction(queue, 'session.created', event, { jobId }, (multi) => multi.del(entryKey))
 */
export async function addJobInTransaction(
  queue: Queue,
  name: string,
  data: unknown,
  opts: JobsOptions & { jobId: string },
  andThen: (multi: IRedisTransaction) => void,
): Promise<string> {
  const client = await queue.client
  const job = new Job(queue, name, data, { ...queue.defaultJobOptions, ...opts }, opts.jobId)
  const multi = client.multi()
  await job.addJob(multi)
  andThen(multi)
  const results = await multi.exec()
  if (!results) throw new Error('the enqueue transaction was aborted')
  const failed = results.find(([error]) => error)
  if (failed) throw failed[0]
  return String(results[0]?.[1])
}
