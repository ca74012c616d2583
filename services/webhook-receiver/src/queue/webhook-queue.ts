import { Queue } from 'bullmq'

/**
 * The webhook queue outside queue/: a handle to give back to queue/'s functions (the dead letters, the
 * quarantine, the dashboard), with no BullMQ type in it, so receiver/ and worker/ never depend on BullMQ's API.
 */
export interface WebhookQueue {
  /** The queue's name (`webhooks`). */
  readonly name: string
}

/** The BullMQ queue behind a handle; anything else is a programming error, refused at once. */
export function bullmqQueueOf(queue: WebhookQueue): Queue {
  if (!(queue instanceof Queue)) throw new TypeError('not a webhook queue opened by queue/')
  return queue
}
