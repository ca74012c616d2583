import { context, propagation, type Context } from '@opentelemetry/api'

/** W3C Trace Context fields (`traceparent`, `tracestate`) as they travel in headers or a job's data. */
export type TraceCarrier = Record<string, string>

/**
 * The active trace context as W3C fields to send along (an outgoing request's headers, a job's data); empty
 * when tracing is off or no span is active.
 */
export function injectTraceContext(from: Context = context.active()): TraceCarrier {
  const carrier: TraceCarrier = {}
  propagation.inject(from, carrier)
  return carrier
}

/**
 * The context a received `traceparent` names, to start a span under; call it only for a caller already
 * authenticated (a stranger must not steer sampling), else start a fresh root.
 */
export function extractTraceContext(carrier: Readonly<Record<string, unknown>> | undefined): Context {
  if (!carrier) return context.active()
  const fields: TraceCarrier = {}
  for (const name of ['traceparent', 'tracestate']) {
    const value = carrier[name]
    // A header may arrive twice (an array); a job's data may hold anything: only one bounded string counts.
    if (typeof value === 'string' && value.length <= 512) fields[name] = value
  }
  return propagation.extract(context.active(), fields)
}
