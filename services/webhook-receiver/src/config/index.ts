// Each process's settings, read once at start by its own loader: the receiver's, the worker's and the
// dead-letters command's; the pieces they share (Redis, the queue, the dedup window, jobs, serving) are read
// by one function each, so the same name always has the same default and the same message.
export { loadReceiverConfig } from './receiver-config'
export type { ReceiverConfig } from './receiver-config'
export { loadWorkerConfig } from './worker-config'
export type { WorkerConfig } from './worker-config'
export { loadDeadLettersConfig } from './dead-letters-config'
export type { DeadLettersConfig } from './dead-letters-config'
export type { QueueConfig } from './read-queue-settings'
export type { JobConfig } from './read-job-settings'
