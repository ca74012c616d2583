import { SearchBudgetError } from '../src/errors'
import { createBudget } from '../src/screening/search-budget'

describe('createBudget', () => {
  it('reads the clock once every 4096 steps, however they are counted', () => {
    const past = createBudget(0)
    for (let step = 1; step < 4096; step += 1) past()
    expect(() => past()).toThrow(SearchBudgetError)
    const batched = createBudget(0)
    batched(4095)
    expect(() => batched(2)).toThrow(SearchBudgetError)
  })

  it('lets a search before its deadline go on, and one without a deadline never stops', () => {
    const future = createBudget(Date.now() + 3_600_000)
    const none = createBudget(undefined)
    for (let step = 0; step < 3; step += 1) {
      future(4096)
      none(4096)
    }
  })
})
