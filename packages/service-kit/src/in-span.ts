import {
  context,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type SpanKind,
} from '@opentelemetry/api'

export interface InSpanOptions {
  attributes?: Attributes
  /** The parent: default the active context; `ROOT_CONTEXT` for a fresh trace. */
  parent?: Context
  kind?: SpanKind
}

/**
 * Runs `work` inside a new active span of the `@pf/service-kit` tracer, ending it when `work` settles; a throw
 * sets the span's status to error with the error's name (never its message: it may quote input) and rethrows.
 * With tracing off every span is a no-op.
 *
 * @example
 * await inSpan('provider.query', { attributes: { endpoint } }, (span) => answer(span))
 */
export function inSpan<T>(
  name: string,
  options: InSpanOptions,
  work: (span: Span) => Promise<T> | T,
): Promise<T> {
  const tracer = trace.getTracer('@pf/service-kit')
  const { attributes, parent = context.active(), kind } = options
  return tracer.startActiveSpan(name, { attributes, kind }, parent, async (span) => {
    try {
      return await work(span)
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.name ?? 'Error' })
      throw error
    } finally {
      span.end()
    }
  })
}
