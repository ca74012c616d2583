import { randomBytes } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { API_KEY_HEADER } from '@pf/schemas'
import { SIGNATURE_HEADER, verifyCallback } from '@pf/signing'

export interface SendQueryOptions {
  providerUrl: string
  apiKey: string
  endpoint: 'companies' | 'sanctions'
  parameters?: Record<string, unknown>
  /** `inline` (default), `pf_s3_sync` or `webhook` (delivered to this listener's `/results`). */
  mechanism?: 'inline' | 'pf_s3_sync' | 'webhook'
  s3Bucket?: string
  s3KeyPrefix?: string
  queryId?: string
  callbackToken?: string
  /** How to read objects delivered by `pf_s3_sync`. */
  s3?: { endpoint: string; region?: string; credentials?: { accessKeyId: string; secretAccessKey: string } }
  /** Host the provider can reach this listener on. */
  listenHost?: string
}

export interface QueryOutcome {
  queryId: string
  response: { status: number; body: Record<string, unknown> }
  callback: { body: Record<string, unknown>; signatureValid: boolean; headers: IncomingHttpHeaders } | null
  results: unknown[] | null
}

type Received = { path: string; headers: IncomingHttpHeaders; raw: Buffer }[]

/** The platform's listener for the callback and webhook deliveries: every request kept, answered 200. */
async function startListener(listenHost: string) {
  const received: Received = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, raw: Buffer.concat(chunks) })
      res.writeHead(200).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, listenHost, resolve))
  return {
    base: `http://${listenHost}:${(server.address() as AddressInfo).port}`,
    received,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

/** The callback received, with its signature checked over the exact bytes; null when none came. */
function callbackOf(received: Received, callbackToken: string): QueryOutcome['callback'] {
  const call = received.find((r) => r.path === '/callback')
  if (!call) return null
  return {
    body: JSON.parse(call.raw.toString('utf8')) as Record<string, unknown>,
    signatureValid: verifyCallback(
      callbackToken,
      call.raw,
      call.headers[SIGNATURE_HEADER.toLowerCase()] as string | undefined,
    ),
    headers: call.headers,
  }
}

/** The results of a `pf_s3_sync` delivery: the object at `s3://bucket/key`. */
async function readS3Results(s3: NonNullable<SendQueryOptions['s3']>, reference: string): Promise<unknown[]> {
  const [, bucket, key] = /^s3:\/\/([^/]+)\/(.+)$/.exec(reference) ?? []
  // Loaded here, on the one path that reads an object: the SDK is heavy for everything else.
  const { GetObjectCommand, S3Client } = await import('@aws-sdk/client-s3')
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region ?? 'us-east-1',
    credentials: s3.credentials,
    forcePathStyle: true,
    responseChecksumValidation: 'WHEN_REQUIRED',
  })
  try {
    const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }))
    return JSON.parse((await object.Body?.transformToString()) ?? 'null') as unknown[]
  } finally {
    client.destroy()
  }
}

/**
 * Plays the platform's side of a query: runs a callback listener, sends the envelope with the API key, checks
 * the callback's `X-PF-Signature` over the exact bytes received, and collects the results whichever way they
 * were delivered (inline, the S3 object, or the webhook POST to the listener).
 *
 * @example
 * const outcome = await sendQuery({ providerUrl, apiKey, endpoint: 'sanctions', parameters: { name: 'Kim Jong Un' } })
 */
export async function sendQuery({
  providerUrl,
  apiKey,
  endpoint,
  parameters = {},
  mechanism = 'inline',
  s3Bucket,
  s3KeyPrefix,
  queryId = `q-${randomBytes(6).toString('hex')}`,
  callbackToken = randomBytes(16).toString('hex'),
  s3,
  listenHost = '127.0.0.1',
}: SendQueryOptions): Promise<QueryOutcome> {
  const { base, received, close } = await startListener(listenHost)
  try {
    const envelope = {
      queryId,
      endpoint: `/api/search/${endpoint}`,
      parameters,
      callbackUrl: `${base}/callback`,
      callbackToken,
      delivery: { mechanism, url: `${base}/results`, s3Bucket, s3KeyPrefix },
    }
    const res = await fetch(`${providerUrl.replace(/\/+$/, '')}/api/search/${endpoint}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [API_KEY_HEADER]: apiKey },
      body: JSON.stringify(envelope),
      signal: AbortSignal.timeout(30_000),
    })
    const text = await res.text()
    let body: Record<string, unknown>
    try {
      body = JSON.parse(text) as Record<string, unknown>
    } catch {
      // Not the provider (a proxy's error page, a wrong port): what came back, for the caller to show.
      body = { error: `not JSON: ${text.slice(0, 200)}` }
    }
    // The provider posts the callback before it answers; only a rejected envelope has none.
    if (res.status !== 400 && res.status !== 401) {
      const deadline = Date.now() + 1000
      while (!received.some((r) => r.path === '/callback') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20))
    }
    const callback = callbackOf(received, callbackToken)
    let results: unknown[] | null = null
    if (res.status === 200 && Array.isArray(body.results)) results = body.results
    const delivered = body.delivery as { mechanism?: string; reference?: string } | undefined
    if (res.status === 200 && delivered?.mechanism === 'webhook') {
      const post = received.find((r) => r.path === '/results')
      results = post ? (JSON.parse(post.raw.toString('utf8')) as unknown[]) : null
    }
    if (res.status === 200 && delivered?.mechanism === 'pf_s3_sync' && s3 && delivered.reference)
      results = await readS3Results(s3, delivered.reference)
    return { queryId, response: { status: res.status, body }, callback, results }
  } finally {
    await close()
  }
}
