import { execFile } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import express from 'express'
import { createVerifyMiddleware } from '@pf/signing'

const run = promisify(execFile)
const bin = join(__dirname, '..', 'dist', 'pf-sim.js')
const home = mkdtempSync(join(tmpdir(), 'pf-sim-'))
const pfSim = (...args: string[]) =>
  run(process.execPath, [bin, ...args], { env: { PATH: process.env.PATH, PF_SIM_HOME: home } })

let url: string
let close: () => void
const received: { event: string; webhookId: string; data: Record<string, unknown> }[] = []
beforeAll(async () => {
  const app = express()
  app.post('/hook', createVerifyMiddleware({ secret: 'whsec_x' }), (req, res) => {
    received.push((req as unknown as { body: (typeof received)[number] }).body)
    res.json({ received: true })
  })
  app.use(
    (_error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) =>
      void res.status(401).json({ error: 'bad signature' }),
  )
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  close = () => server.close()
})
afterAll(() => close())

describe('pf-sim', () => {
  it('prints its help, and a clear error with exit code 2 for a wrong command', async () => {
    expect((await pfSim('help')).stdout).toMatch(/pf-sim webhook send <kind>/)
    await expect(pfSim('webhook', 'send')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^pf-sim: which kind\?/),
    })
  })

  it('webhook send: a signed event with realistic data and field overrides; --json for scripts', async () => {
    const { stdout } = await pfSim(
      'webhook',
      'send',
      'purchase.failed',
      '--url',
      url,
      '--secret',
      'whsec_x',
      '--set',
      'required=500',
      '--json',
    )
    const outcome = JSON.parse(stdout) as { state: string; webhookId: string; attempts: unknown[] }
    expect(outcome).toMatchObject({
      state: 'delivered',
      attempts: [{ attempt: 1, status: 200, state: 'delivered' }],
    })
    expect(received.at(-1)).toMatchObject({
      event: 'purchase.failed',
      webhookId: outcome.webhookId,
      data: { required: 500, errorCode: 'INSUFFICIENT_BALANCE' },
    })
    expect(outcome.webhookId).toMatch(/^wh_/)
  })

  it('webhook replay re-sends the same id and body', async () => {
    const sent = JSON.parse(
      (await pfSim('webhook', 'send', 'session.ended', '--url', url, '--secret', 'whsec_x', '--json')).stdout,
    ) as { webhookId: string }
    await pfSim('webhook', 'replay', sent.webhookId, '--url', url, '--secret', 'whsec_x')
    expect(received.filter((e) => e.webhookId === sent.webhookId)).toHaveLength(2)
  })

  it('webhook raw with a wrong signature shows the refusal and the retry schedule (time-scaled), exit 1', async () => {
    const error = await pfSim(
      'webhook',
      'raw',
      '--url',
      url,
      '--secret',
      'whsec_x',
      '--body',
      '{"event":"x"}',
      '--signature',
      'bad',
      '--time-scale',
      '1000000',
    ).catch((e: { code: number; stdout: string }) => e)
    expect(error).toMatchObject({ code: 1 })
    expect((error as { stdout: string }).stdout).toMatch(
      /attempt 1 {2}401 {2}retry pending {2}next try in 0 ms[\s\S]*attempt 6 {2}401 {2}failed/,
    )
  })
})
