/**
 * What one set-up check of an identity provider found: `ok` with what it saw, or the problem and how to fix it.
 * A check that could not ask (no answer, refused) rejects instead.
 */
export type SetupFinding = { ok: true; found: string } | { ok: false; problem: string; fix: string }

/** One thing the spec requires of the provider's set-up, checked through its admin API (for a `doctor`). */
export interface SetupCheck {
  name: string
  run: () => Promise<SetupFinding>
}

export const found = (text: string): SetupFinding => ({ ok: true, found: text })
export const problem = (text: string, fix: string): SetupFinding => ({ ok: false, problem: text, fix })

/** A problem that leaves the provider usable but unsafe, found at a service's start: logged, as a doctor says it. */
export interface SetupProblem {
  check: string
  problem: string
  fix: string
}
