import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../lib/free-port'
import { findPostgresBinaries } from './find-postgres-binaries'
import { commandAsPostgres, postgresUser } from './run-as-postgres'

export interface PostgresHandle {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication: a throw-away cluster). */
  url: string
  port: number
  /** The folder of its Unix socket (`-k`), inside the cluster's temporary folder. */
  socketDir: string
  /** The `bin` folder of the binaries it runs (`psql`, `pg_dump` are there too). */
  binDir: string
  /** Stops the server (fast shutdown), keeping its data: `start()` brings it back on the same port. */
  stop(): Promise<void>
  /** Starts the stopped server again, its data intact; resolves once it accepts connections. */
  start(): Promise<void>
  /** Stops the server and removes its folder: what a test's cleanup calls. */
  destroy(): Promise<void>
}

export interface StartPostgresOptions {
  /** A `bin` folder holding `initdb` and `postgres`; default: the newest under /usr/lib/postgresql. */
  binDir?: string
  readyTimeoutMs?: number
  /** More `-c name=value` settings for the server. */
  settings?: Record<string, string>
}

// Every server started here, killed when this process exits; its folder removed with it.
const alive = new Map<ChildProcess, string>()
let exitHook = false

/**
 * A private PostgreSQL cluster for a test: `initdb` into a temporary folder owned by the `postgres` user, then
 * `postgres` on a free port of 127.0.0.1 with its socket in that folder, both run through `setpriv` (as
 * `postgres` when this process is root; the kernel kills them when it dies). Durability is off (`fsync`,
 * `synchronous_commit`): nothing in it outlives the test.
 *
 * @example
 * const cleanup = createCleanup(afterAll)
 * beforeAll(async () => {
 *   postgres = cleanup.add(await startPostgres(), (p) => p.destroy())
 * })
 */
export async function startPostgres({
  binDir = findPostgresBinaries(),
  readyTimeoutMs = 30_000,
  settings = {},
}: StartPostgresOptions = {}): Promise<PostgresHandle> {
  if (!binDir)
    throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql (apt-get install postgresql)')
  const dir = mkdtempSync(join(tmpdir(), 'pf-postgres-'))
  const dataDir = join(dir, 'data')
  const socketDir = join(dir, 'socket')
  mkdirSync(socketDir)
  const user = process.getuid?.() === 0 ? postgresUser() : undefined
  if (process.getuid?.() === 0 && !user) throw new Error('no "postgres" user to run PostgreSQL as')
  if (user) for (const path of [dir, socketDir]) chownSync(path, user.uid, user.gid)
  const initdb = run(join(binDir, 'initdb'), ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8'])
  if (initdb.status !== 0) {
    rmSync(dir, { recursive: true, force: true })
    throw new Error(`initdb failed (${initdb.status}): ${initdb.stderr}`)
  }
  const port = await freePort()
  const args = ['-D', dataDir, '-p', String(port), '-k', socketDir, '-c', 'listen_addresses=127.0.0.1']
  const all = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', ...settings }
  for (const [name, value] of Object.entries(all)) args.push('-c', `${name}=${value}`)
  let child: ChildProcess | undefined
  const start = async () => {
    child = launch(join(binDir, 'postgres'), args, dir)
    await waitReady(child, binDir, socketDir, port, readyTimeoutMs)
  }
  const stop = async () => {
    const running = child
    child = undefined
    if (!running || running.exitCode !== null || running.signalCode !== null) return
    const exited = once(running, 'exit')
    running.kill('SIGINT') // fast shutdown: ends sessions, writes a checkpoint, so start() finds its data
    await exited
  }
  try {
    await start()
  } catch (error) {
    child?.kill('SIGKILL')
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    socketDir,
    binDir,
    stop,
    start,
    async destroy() {
      await drainSessions(child)
      await stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/**
 * Lets the sessions still closing end on their own before the fast shutdown: `pool.end()` resolves as its clients
 * start closing, and a server that ends them in that moment sends each a FATAL (57P01) that no one listens to any
 * more, an unhandled 'error' in the test. A smart shutdown (SIGTERM) takes no new session and exits once the last
 * one has gone; a session a test leaked keeps it waiting, so after a while the caller's fast shutdown follows.
 */
async function drainSessions(running: ChildProcess | undefined): Promise<void> {
  if (!running || running.exitCode !== null || running.signalCode !== null) return
  const exited = once(running, 'exit')
  running.kill('SIGTERM')
  let timer: NodeJS.Timeout | undefined
  const waited = new Promise((resolve) => (timer = setTimeout(resolve, SMART_SHUTDOWN_MS)))
  await Promise.race([exited, waited])
  clearTimeout(timer)
}

const SMART_SHUTDOWN_MS = 3_000

// The server gets an environment of its own, never the caller's (a library does not read the environment): a fixed
// locale so initdb never depends on the machine's, and the system PATH where setpriv lives.
const SERVER_ENV = { LC_ALL: 'C.UTF-8', PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' }

function run(binary: string, args: string[]) {
  const [command, commandArgs] = commandAsPostgres(binary, args)
  return spawnSync(command, commandArgs, { encoding: 'utf8', env: SERVER_ENV })
}

function launch(binary: string, args: string[], dir: string): ChildProcess {
  const [command, commandArgs] = commandAsPostgres(binary, args)
  const child = spawn(command, commandArgs, { stdio: 'ignore', env: SERVER_ENV })
  alive.set(child, dir)
  child.once('exit', () => alive.delete(child))
  if (!exitHook) {
    exitHook = true
    process.once('exit', () => {
      for (const [running, folder] of alive) {
        running.kill('SIGKILL')
        rmSync(folder, { recursive: true, force: true })
      }
    })
  }
  return child
}

/** Polls `pg_isready` on the socket until the server accepts connections, or fails when it exits. */
async function waitReady(
  child: ChildProcess,
  binDir: string,
  socketDir: string,
  port: number,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`postgres exited (${child.exitCode ?? child.signalCode}) before accepting connections`)
    const ready = spawnSync(join(binDir, 'pg_isready'), ['-q', '-h', socketDir, '-p', String(port)])
    if (ready.status === 0) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`postgres did not accept connections within ${timeoutMs} ms`)
}
