import type { CollectedSpan } from '@pf/testkit'

/**
 * The attributes worth a glance on a span's line: ours (`pf.*`, but the job's id: the webhookId says which) and
 * what answered (`http.*` status, `error.type`).
 */
const shown = (span: CollectedSpan) =>
  Object.entries(span.attributes)
    .filter(
      ([key]) =>
        (key.startsWith('pf.') && key !== 'pf.job_id') ||
        key === 'http.response.status_code' ||
        key === 'error.type',
    )
    .map(([key, value]) => `${key.replace(/^pf\./, '')}=${String(value)}`)

const cut = (text: string, width: number) => (text.length <= width ? text : `${text.slice(0, width - 1)}…`)

/** One trace as a tree: each span under its parent, with its service, its key attributes and an error mark. */
export function formatSpanTree(spans: CollectedSpan[], width = 100): string {
  const ids = new Set(spans.map((span) => span.spanId))
  const children = new Map<string | undefined, CollectedSpan[]>()
  for (const span of spans) {
    // A span whose parent is not here (the platform's, or not exported yet) is a root of what is.
    const parent = span.parentSpanId && ids.has(span.parentSpanId) ? span.parentSpanId : undefined
    children.set(parent, [...(children.get(parent) ?? []), span])
  }
  const lines: string[] = []
  // A field its parent's line already shows (the event, the webhookId) is not repeated under it.
  const walk = (parent: string | undefined, depth: number, above: Set<string>) => {
    for (const span of children.get(parent) ?? []) {
      const error = span.statusCode === 2 ? '  ERROR' : ''
      const fields = shown(span)
      const own = fields.filter((field) => !above.has(field)).join(' ')
      const line = `${'  '.repeat(depth + 1)}${span.name} (${span.serviceName})${error}${own ? `  ${own}` : ''}`
      lines.push(cut(line, width))
      walk(span.spanId, depth + 1, new Set([...above, ...fields]))
    }
  }
  walk(undefined, 0, new Set())
  return [`[trace ${spans[0]?.traceId ?? ''}]`, ...lines].join('\n')
}

export interface SpanTreePrinterOptions {
  print?: (text: string) => void
  /** How long a trace stays quiet before it is printed: its spans come from several processes, in batches. */
  quietMs?: number
  /** How many traces are remembered, so that a later span (a retry) is printed under its own. */
  keepTraces?: number
}

/**
 * `pnpm start --traces`: prints each trace's span tree once its spans stop coming for `quietMs`; a trace that
 * grows later (a retry of the worker) is printed again, whole.
 */
export function createSpanTreePrinter({
  print = (text) => console.log(text),
  quietMs = 1000,
  keepTraces = 200,
}: SpanTreePrinterOptions = {}) {
  const traces = new Map<string, CollectedSpan[]>()
  const timers = new Map<string, NodeJS.Timeout>()
  const printTrace = (traceId: string) => {
    timers.delete(traceId)
    print(formatSpanTree(traces.get(traceId) ?? []))
  }
  return {
    add(spans: CollectedSpan[]) {
      for (const span of spans) {
        const known = traces.get(span.traceId) ?? []
        traces.delete(span.traceId)
        traces.set(span.traceId, [...known, span].slice(-100))
        clearTimeout(timers.get(span.traceId))
        const timer = setTimeout(() => printTrace(span.traceId), quietMs)
        timer.unref()
        timers.set(span.traceId, timer)
      }
      // The oldest first out: a map keeps its insertion order, and each span re-inserts its trace.
      for (const traceId of [...traces.keys()].slice(0, Math.max(0, traces.size - keepTraces))) {
        traces.delete(traceId)
        clearTimeout(timers.get(traceId))
        timers.delete(traceId)
      }
    },
    /** Prints every trace still waiting (the sandbox stops). */
    flush() {
      for (const traceId of [...timers.keys()]) {
        clearTimeout(timers.get(traceId))
        printTrace(traceId)
      }
    },
  }
}
