import type { Express, NextFunction, Request, Response } from 'express'

/** One request an emulator received. */
export interface RecordedCall {
  method: string
  path: string
  query: Record<string, unknown>
  headers: Record<string, unknown>
  body: unknown
}

/** A failure to serve instead of the real answer. */
export interface Fault {
  status?: number
  body?: unknown
  headers?: Record<string, string>
  /** Never answer (until the emulator stops). */
  hang?: boolean
  /**
   * Serve the request first, then answer with the fault (or hang) instead of the real answer: the server acted
   * but the client never learns it, as when a gateway times out or a connection drops after the write.
   */
  after?: boolean
  /** How many matching requests get it (default 1). */
  times?: number
  /** Which requests it applies to (default all). */
  match?: (call: RecordedCall) => boolean
}

/** What every emulator offers tests: the request log, latency and fault injection. */
export interface EmulatorControls {
  requests: RecordedCall[]
  setLatency(ms: number): void
  injectFault(fault: Fault): void
  clearFaults(): void
}

/**
 * Installs the request log, latency and fault injection in front of an emulator's routes; returns the
 * controls and a function that releases hung requests (for `stop()`).
 */
export function installControls(
  app: Express,
  { latencyMs = 0 } = {},
): EmulatorControls & { releaseHung(): void } {
  const requests: RecordedCall[] = []
  const faults: (Fault & { left: number })[] = []
  const hung: Response[] = []
  let latency = latencyMs

  app.use((req: Request, res: Response, next: NextFunction) => {
    const call: RecordedCall = {
      method: req.method,
      path: req.path,
      query: { ...req.query },
      headers: { ...req.headers },
      body: req.body,
    }
    requests.push(call)
    const fault = faults.find((f) => f.left > 0 && (!f.match || f.match(call)))
    const serveFault = (active: Fault) => {
      if (active.hang) {
        hung.push(res)
        return
      }
      res.status(active.status ?? 500).set(active.headers ?? {})
      if (active.body === undefined) res.end()
      else res.json(active.body)
    }
    const proceed = () => {
      if (!fault) return next()
      fault.left -= 1
      if (!fault.after) return serveFault(fault)
      // Let the route act, then throw its answer away: Express ends every answer through res.end.
      const end = res.end.bind(res)
      res.end = ((..._ignored: unknown[]) => {
        res.end = end
        for (const name of res.getHeaderNames()) res.removeHeader(name)
        serveFault(fault)
        return res
      }) as Response['end']
      next()
    }
    if (latency > 0) setTimeout(proceed, latency)
    else proceed()
  })

  return {
    requests,
    setLatency: (ms) => void (latency = ms),
    injectFault: (fault) => void faults.push({ ...fault, left: fault.times ?? 1 }),
    clearFaults: () => void faults.splice(0),
    releaseHung: () => {
      for (const res of hung.splice(0)) res.socket?.destroy()
    },
  }
}
