import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { createCleanup } from '@pf/testkit'
import { startPostgres, type PostgresHandle } from '@pf/testkit/postgres'

/** One SQL statement through the cluster's own `psql`, over its Unix socket. */
function psql(postgres: PostgresHandle, sql: string) {
  return spawnSync(
    join(postgres.binDir, 'psql'),
    ['-h', postgres.socketDir, '-p', String(postgres.port), '-U', 'postgres', '-tAc', sql, 'postgres'],
    { encoding: 'utf8' },
  )
}

describe('startPostgres starts a private, throw-away PostgreSQL cluster', () => {
  const cleanup = createCleanup(afterAll)
  let postgres: PostgresHandle

  beforeAll(async () => {
    postgres = cleanup.add(await startPostgres(), (p) => p.destroy())
  })

  it('answers on its own port and socket, runs as the postgres user, not root, with durability off', () => {
    expect(postgres.url).toBe(`postgres://postgres@127.0.0.1:${postgres.port}/postgres`)
    expect(psql(postgres, 'select 1').stdout.trim()).toBe('1')
    expect(psql(postgres, 'show fsync').stdout.trim()).toBe('off')
    // The postmaster's pid is the first line of postmaster.pid in its data folder (a backend's ends with psql).
    const dataDir = psql(postgres, 'show data_directory').stdout.trim()
    const pid = readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]
    expect(statSync(`/proc/${pid}`).uid).not.toBe(0)
  })

  it('stop and start take it down and up again on the same port, with its data', async () => {
    psql(postgres, 'create table kept (v int); insert into kept values (42)')
    await postgres.stop()
    expect(psql(postgres, 'select 1').status).not.toBe(0)
    await postgres.start()
    expect(psql(postgres, 'select v from kept').stdout.trim()).toBe('42')
  })

  it('destroy stops it and removes its folder', async () => {
    const other = await startPostgres()
    const folder = dirname(other.socketDir)
    expect(existsSync(folder)).toBe(true)
    await other.destroy()
    expect(existsSync(folder)).toBe(false)
    expect(psql(other, 'select 1').status).not.toBe(0)
  })

  it('ends with its parent: a killed parent leaves no server behind (setpriv --pdeathsig)', async () => {
    // A child Node process starts a cluster, prints its port, then is killed with SIGKILL (no exit hook runs).
    const script = `require(${JSON.stringify(require.resolve('../dist/postgres/index.js'))}).startPostgres().then((p) => { console.log(JSON.stringify({ port: p.port, socketDir: p.socketDir })); setInterval(() => {}, 1000) })`
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] })
    const started = await new Promise<string>((resolve) =>
      child.stdout.once('data', (d: Buffer) => resolve(d.toString())),
    )
    const { port, socketDir } = JSON.parse(started) as { port: number; socketDir: string }
    // SIGKILL runs no exit hook: the folder is this test's to remove.
    cleanup.defer(() => rmSync(dirname(socketDir), { recursive: true, force: true }))
    const running = () => spawnSync('pgrep', ['-f', `postgres .* -p ${port} `]).status === 0
    expect(running()).toBe(true)
    child.kill('SIGKILL')
    const deadline = Date.now() + 20_000
    while (running() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
    expect(running()).toBe(false)
  })
})
