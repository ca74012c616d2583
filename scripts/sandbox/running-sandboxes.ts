import { existsSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { SandboxPlace } from './sandbox-place'

/** What a running sandbox records in its folder: what `pnpm dead-letters` needs to find its queue. */
export interface RunningSandbox {
  pid: number
  dir: string
  redisUrl: string
  queuePrefix: string
  /** The receiver's job settings (WEBHOOK_JOB_*), which a replayed quarantined event gets too. */
  jobSettings: Record<string, string>
  startedAt: string
}

const RECORD = 'running.json'

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists, run by someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function readRecord(dir: string): RunningSandbox | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, RECORD), 'utf8')) as RunningSandbox
  } catch {
    return undefined
  }
}

/**
 * Records a started sandbox in its folder (readable by its owner alone: a REDIS_URL may hold a password) and
 * returns what removes the record; removed too when this process exits however it can (a SIGKILL leaves it, and
 * `runningSandboxes` skips a record whose process is gone).
 */
export function recordRunningSandbox(
  place: SandboxPlace,
  { redisUrl, jobSettings }: { redisUrl: string; jobSettings: Record<string, string> },
): () => void {
  const file = join(place.dir, RECORD)
  const record: RunningSandbox = {
    pid: process.pid,
    dir: place.dir,
    redisUrl,
    queuePrefix: place.queuePrefix,
    jobSettings,
    startedAt: new Date().toISOString(),
  }
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 })
  const remove = () => {
    process.removeListener('exit', remove)
    if (readRecord(place.dir)?.pid === process.pid) unlinkSync(file)
  }
  process.on('exit', remove)
  return remove
}

/** The sandboxes running now whose folder is `home` or one under it, from their records. */
export function runningSandboxes(home: string): RunningSandbox[] {
  if (!existsSync(home)) return []
  const dirs = [
    home,
    ...readdirSync(home, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? [join(home, entry.name)] : [],
    ),
  ]
  return dirs.flatMap((dir) => {
    const record = readRecord(dir)
    return record && alive(record.pid) ? [{ ...record, dir }] : []
  })
}

/** Removes the folders of `--ports ephemeral` sandboxes whose process is gone (each run makes a new one). */
export function pruneStoppedSandboxes(home: string): void {
  if (!existsSync(home)) return
  for (const entry of readdirSync(home, { withFileTypes: true })) {
    const pid = /^ephemeral-(\d+)$/.exec(entry.name)?.[1]
    if (entry.isDirectory() && pid && !alive(Number(pid)))
      rmSync(join(home, entry.name), { recursive: true, force: true })
  }
}
