import { SearchBudgetError } from '../errors'

/** A step of a search, or `steps` of them (a kernel call counting many strings at once). */
export type Tick = (steps?: number) => void

/** Checks the clock every 4096 steps: a search past its deadline stops with `SearchBudgetError`. */
export function createBudget(deadline: number | undefined): Tick {
  if (deadline === undefined) return () => {}
  let steps = 0
  return (taken = 1) => {
    const before = steps
    steps += taken
    if (Math.floor(before / 4096) === Math.floor(steps / 4096)) return
    if (Date.now() > deadline) throw new SearchBudgetError('search took longer than its time budget')
  }
}
