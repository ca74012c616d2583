import autocannon from 'autocannon'

export interface LoadResult {
  requestsPerSecond: number
  /** Requests answered 2xx over the whole run: what CPU time per request is divided by. */
  ok: number
  p50: number
  p99: number
  non2xx: number
  errors: number
}

export interface LoadOptions {
  url: string
  durationSeconds: number
  /** Sends this many requests instead of running for `durationSeconds`. */
  amount?: number
  /** A request unanswered this long is an error (autocannon's default: 10 s). */
  timeoutSeconds?: number
  connections: number
  /** Caps the whole run at this many requests per second (for latency at a given load). */
  rate?: number
  /** Builds each request's body and headers. */
  nextRequest: () => { body: string; headers: Record<string, string> }
}

/** Runs autocannon against one URL and keeps the numbers the benchmark reports. */
export async function load({
  url,
  durationSeconds,
  amount,
  timeoutSeconds,
  connections,
  rate,
  nextRequest,
}: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url,
    method: 'POST',
    connections,
    ...(amount ? { amount } : { duration: durationSeconds }),
    ...(timeoutSeconds ? { timeout: timeoutSeconds } : {}),
    ...(rate ? { overallRate: rate } : {}),
    requests: [
      {
        setupRequest: (request) => {
          const { body, headers } = nextRequest()
          return { ...request, method: 'POST', body, headers: { ...request.headers, ...headers } }
        },
      },
    ],
  })
  return {
    requestsPerSecond: result.requests.average,
    ok: result['2xx'],
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  }
}
