import type { Verdict } from './conformance-report'
import { fail, notChecked, pass, shown } from './conformance-report'
import type { HeardRequest } from './conformance-listener'
import type { ProviderContext, QueryRun } from './provider-conformance-context'

/** One rule of interface A: its name, its words, and how the suite checks it. */
export interface ProviderRule {
  rule: string
  title: string
  check(context: ProviderContext): Promise<Verdict>
}

export type Body = Record<string, unknown>
export const isCount = (value: unknown) => Number.isInteger(value) && (value as number) >= 0
export const bodyOf = (run: QueryRun) => (run.answer.body ?? {}) as Body
export const answerText = ({ answer }: QueryRun) => `${answer.status} ${shown(answer.body ?? answer.text)}`
export const json = (request: HeardRequest): unknown => {
  try {
    return JSON.parse(request.raw.toString('utf8')) as unknown
  } catch {
    return undefined
  }
}

/** The rules below need an envelope the provider accepts: not checked when it refuses the suite's address. */
export function accepted(check: (context: ProviderContext) => Promise<Verdict>) {
  return async (context: ProviderContext) => {
    const refused = await context.callbackRefused()
    return refused ? notChecked(refused) : check(context)
  }
}

/** Why an answer is not the inline shape: 200 `{queryId, recordCount, executionTimeMs, results}`. */
export function inlineProblem(run: QueryRun): Verdict {
  const body = bodyOf(run)
  const expected = `200 {queryId, recordCount, executionTimeMs, results} with ${run.queryId}`
  if (run.answer.status !== 200 || body.queryId !== run.queryId) return fail(expected, answerText(run))
  if (!isCount(body.recordCount) || !isCount(body.executionTimeMs))
    return fail('integer recordCount and executionTimeMs', answerText(run))
  if (!Array.isArray(body.results)) return fail('results, an array (inline delivery)', answerText(run))
  if (body.results.length !== body.recordCount)
    return fail(`recordCount ${String(body.recordCount)} results`, `${body.results.length}`)
  return pass()
}
