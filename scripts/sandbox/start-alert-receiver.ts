import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readRawBody, SIGNATURE_HEADER, verifyCallback } from '@pf/signing'

/** Largest alert batch read (a batch of 1000 alerts with large hits stays well under it). */
const MAX_BATCH_BYTES = 16 * 1024 * 1024

/**
 * A local receiver of watch alerts: verifies each POST's `X-PF-Signature` with the watch's `alertToken`
 * (`verifyCallback`, as the platform verifies status callbacks) over the raw body, prints the batch, and
 * acknowledges it with 200 (401 on a bad signature, which the provider retries).
 */
export async function startAlertReceiver({
  port,
  host = '127.0.0.1',
  token,
  print = console.log,
}: {
  port: number
  host?: string
  token: string
  print?: (line: string) => void
}): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    readRawBody(req, { limit: MAX_BATCH_BYTES }).then(
      (body) => {
        const valid = verifyCallback(token, body, req.headers[SIGNATURE_HEADER.toLowerCase()] as string)
        if (!valid) {
          print(`alert batch refused: signature invalid (${body.length} bytes)`)
          return void res
            .writeHead(401, { 'content-type': 'application/json' })
            .end('{"error":"bad signature"}')
        }
        const batch = JSON.parse(body.toString('utf8')) as {
          watchId: string
          sequence: number
          batchId: string
          alerts: { kind: string; subjectId: string; alertId: string }[]
        }
        print(
          `alert batch ${batch.sequence} of watch ${batch.watchId} (signature valid, batchId ${batch.batchId}): ` +
            batch.alerts.map((alert) => `${alert.kind} ${alert.subjectId}`).join(', '),
        )
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}')
      },
      () => void res.writeHead(400).end(),
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, resolve)
  })
  const address = server.address() as AddressInfo
  return {
    url: `http://${host}:${address.port}/alerts`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
