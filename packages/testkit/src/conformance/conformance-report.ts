/** What the suite says of one rule: it held, it did not (what was expected, what came), or it could not be seen. */
export type RuleOutcome = 'PASS' | 'FAIL' | 'NOT CHECKED'

export interface RuleResult {
  /** A stable name, for scripts and for a team's own tests: `callback-signed`, `signature-wrong-401`. */
  rule: string
  /** The rule in words, as the spec states it. */
  title: string
  outcome: RuleOutcome
  /** FAIL: `expected …, got …`; NOT CHECKED: why, and what to change so it can be checked. */
  detail?: string
}

export interface ConformanceReport {
  /** True when no rule FAILed (NOT CHECKED is never counted as passed, nor as failed). */
  passed: boolean
  results: RuleResult[]
}

/** A rule's verdict before it is named: the runner adds the rule's name and title. */
export type Verdict = Pick<RuleResult, 'outcome' | 'detail'>

export const pass = (): Verdict => ({ outcome: 'PASS' })
export const fail = (expected: string, got: string): Verdict => ({
  outcome: 'FAIL',
  detail: `expected ${expected}, got ${got}`,
})
export const notChecked = (why: string): Verdict => ({ outcome: 'NOT CHECKED', detail: why })

/** The report as a terminal shows it: one line per rule, then a count. */
export function formatConformanceReport({ results }: ConformanceReport): string {
  const width = Math.max(...results.map((r) => r.rule.length))
  const lines = results.map(
    (r) => `${r.outcome.padEnd(11)}  ${r.rule.padEnd(width)}  ${r.title}${r.detail ? `: ${r.detail}` : ''}`,
  )
  const count = (outcome: RuleOutcome) => results.filter((r) => r.outcome === outcome).length
  lines.push(
    `${count('PASS')} passed, ${count('FAIL')} failed, ${count('NOT CHECKED')} not checked (of ${results.length} rules)`,
  )
  return lines.join('\n')
}

/** A value as a FAIL line quotes it: JSON, cut to 200 characters. */
export function shown(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value))
  return text.length > 200 ? `${text.slice(0, 199)}…` : text
}
