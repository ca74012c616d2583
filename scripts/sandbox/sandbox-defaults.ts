import { join } from 'node:path'

const root = join(__dirname, '..', '..')

/**
 * The sandbox's own retries, so that `fail-me` is a dead letter in seconds (the production default, 10 attempts
 * from a second, takes about eight and a half minutes): 4 attempts, waiting 1, 2 and 4 s at most (BullMQ's
 * exponential backoff, each wait cut by up to half by its jitter). The caller's WEBHOOK_JOB_* win.
 */
export const SANDBOX_JOB_SETTINGS = { WEBHOOK_JOB_ATTEMPTS: '4', WEBHOOK_JOB_BACKOFF_MS: '1000' }

/** The longest a failing job waits in all before it is a dead letter: the sum of its exponential backoffs. */
export const deadLetterAfterMs = (attempts: number, backoffMs: number) =>
  backoffMs * (2 ** (attempts - 1) - 1)

/** `--lists reference`: every list of the repository's `data/reference/`, and the sample's (the README's queries). */
export const REFERENCE_LISTS = [
  ...['un-consolidated', 'us-csl', 'opensanctions-ftm', 'ofac-sdn-2024', 'ofac-consolidated'].map((folder) =>
    join(root, 'data', 'reference', folder),
  ),
  join(root, 'services', 'provider', 'data', 'sample', 'sanctions.jsonl'),
]
