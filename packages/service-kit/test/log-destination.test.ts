import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { createLogDestination } from '../src'

const fixture = join(__dirname, 'fixtures', 'chatty-service.cjs')

beforeAll(() => {
  if (!existsSync(join(__dirname, '..', 'dist', 'index.js')))
    throw new Error('dist/ is missing: run `pnpm build` (pnpm test does)')
})

/** Starts the fixture with a stdout pipe nobody reads; resolves once it has filled it and handles signals. */
async function startWithUnreadStdout() {
  const child = spawn(process.execPath, [fixture], { stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout.pause()
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => (chunk.toString().includes('ready') ? resolve() : undefined))
    void exited.then(() => reject(new Error('exited before it was ready')))
  })
  // A hang guard for the test run, not a measurement: the assertion is on how it exits.
  const guard = setTimeout(() => child.kill('SIGKILL'), 20_000)
  void exited.finally(() => clearTimeout(guard))
  return { child, exited }
}

describe('a service whose stdout is not read (guide: exits on SIGTERM whatever state its stdout is in)', () => {
  it('exits 0 on SIGTERM while its log pipe is full and nobody reads it', async () => {
    const { child, exited } = await startWithUnreadStdout()
    child.kill('SIGTERM')
    expect(await exited).toEqual([0, null])
  })

  it('exits 0 on SIGTERM after the reader of its full log pipe went away (EPIPE)', async () => {
    const { child, exited } = await startWithUnreadStdout()
    child.stdout.destroy()
    child.kill('SIGTERM')
    expect(await exited).toEqual([0, null])
  })
})

describe('createLogDestination', () => {
  /** A reader that takes the first write and then never calls back: a stalled log collector. */
  const stalled = () => new Writable({ highWaterMark: 16, write: () => {} })

  it('drops and counts lines past maxPendingBytes instead of holding them all', () => {
    const destination = createLogDestination({ stream: stalled(), maxPendingBytes: 1000 })
    for (let i = 0; i < 100; i += 1) destination.write(`${'x'.repeat(99)}\n`)
    // The first write is in flight; 10 more fill the 1000 bytes; the rest are dropped.
    expect(destination.dropped()).toBe(89)
  })

  it('stops writing, without throwing, once the stream has failed', () => {
    const stream = new Writable({
      write: (_chunk, _enc, done) => done(Object.assign(new Error('EPIPE'), { code: 'EPIPE' })),
    })
    const destination = createLogDestination({ stream })
    destination.write('one\n')
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        destination.write('two\n')
        expect(destination.dropped()).toBe(1)
        resolve()
      }),
    )
  })

  it('says how many lines it dropped once the reader catches up', async () => {
    const lines: string[] = []
    let release: (() => void) | undefined
    const stream = new Writable({
      highWaterMark: 16,
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString())
        release = done
      },
    })
    const destination = createLogDestination({ stream, maxPendingBytes: 20 })
    destination.write('first line\n')
    destination.write('second line\n')
    destination.write('third line\n')
    expect(destination.dropped()).toBe(1)
    while (release) {
      const next = release
      release = undefined
      next()
      await new Promise((resolve) => setImmediate(resolve))
    }
    expect(lines.map((line) => line.trim()).slice(0, 2)).toEqual(['first line', 'second line'])
    expect(JSON.parse(lines[2]!)).toMatchObject({ msg: 'log lines dropped: stdout was not read', dropped: 1 })
  })
})
