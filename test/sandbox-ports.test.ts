import { spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// A second `pnpm start` where the ports are taken. Not the contract's ports (this machine is shared; nothing
// may rely on 3001-3004 being free, or take them): the sandbox's --port-offset moves every fixed port, and this
// test holds each of the moved ports itself, as a first sandbox would.
const root = join(__dirname, '..')
const LISTENERS: [string, number][] = [
  ['S3 (s3rver)', 4569],
  ['marketplace JWT issuer', 4200],
  ['Keycloak emulator', 4100],
  ['Auth0 emulator', 4110],
  ['provider', 3002],
  ['webhook receiver', 3001],
  ['webhook worker', 3011],
  ['auth exchange (realm)', 3003],
  ['auth exchange (tenant)', 3004],
]

async function hold(port: number): Promise<Server | undefined> {
  const server = createServer()
  server.listen(port, '127.0.0.1')
  const [event] = await Promise.race([once(server, 'listening').then(() => ['ok']), once(server, 'error')])
  return event === 'ok' ? server : undefined
}

/** Every listener's port at one offset, held by this process; another offset while one of them is taken. */
async function holdAll(): Promise<{ offset: number; servers: Server[] }> {
  for (;;) {
    const offset = 20_000 + Math.floor(Math.random() * 30_000)
    const servers = await Promise.all(LISTENERS.map(([, port]) => hold(port + offset)))
    if (servers.every(Boolean)) return { offset, servers: servers as Server[] }
    for (const server of servers) server?.close()
  }
}

describe('a second pnpm start on taken ports', () => {
  it('names every busy port, what the sandbox wanted it for and the process holding it, with no stack trace', async () => {
    const { offset, servers } = await holdAll()
    try {
      const started = spawnSync('pnpm', ['start', '--port-offset', String(offset), '--idp', 'realm,tenant'], {
        cwd: root,
        env: { ...process.env, SANDBOX_DIR: mkdtempSync(join(tmpdir(), 'pf-sandbox-home-')) },
        encoding: 'utf8',
      })
      expect(started.status).toBe(1)
      expect(started.stderr).toMatch(/^pnpm start: 9 ports the sandbox needs are in use:\n/)
      for (const [name, port] of LISTENERS)
        expect(started.stderr).toContain(
          `\n  ${port + offset} (${name}, on 127.0.0.1) is held by node, pid ${process.pid}\n`,
        )
      expect(started.stderr).toMatch(
        /\nstop what holds them, or run pnpm start --port-offset N or --ports ephemeral\n/,
      )
      expect(started.stderr).not.toMatch(/\n\s+at /)
    } finally {
      for (const server of servers) server.close()
    }
  })
})
