import { SearchBudgetError } from '../errors'

/** Checks the clock every 4096 steps: a search past its deadline stops with `SearchBudgetError`. */
export function createBudget(deadline: number | undefined): () => void {
  if (deadline === undefined) return () => {}
  let steps = 0
  return () => {
    if ((steps += 1) % 4096 !== 0) return
    if (Date.now() > deadline) throw new SearchBudgetError('search took longer than its time budget')
  }
}
