import { MEASURES, type ProviderMeasures } from './measure-provider'
import { median, round } from './stats'

export interface MeasureVerdict {
  measure: string
  unit: string
  old: number
  new: number
  /** new / old. */
  ratio: number
  verdict: 'PASS' | 'FAIL'
}

/**
 * Per measure, the median of each build's runs and the new build's ratio to the old: PASS when the new one is
 * no more than `tolerance` worse (slower, or fewer requests per second), whatever it gained.
 */
export function compareMedians(
  runs: { old: readonly ProviderMeasures[]; new: readonly ProviderMeasures[] },
  tolerance = 0.05,
): MeasureVerdict[] {
  return (Object.keys(MEASURES) as (keyof ProviderMeasures)[]).map((key) => {
    const { label, unit, better } = MEASURES[key]
    const old = median(runs.old.map((run) => run[key]))
    const now = median(runs.new.map((run) => run[key]))
    const ratio = now / old
    const pass = better === 'lower' ? ratio <= 1 + tolerance : ratio >= 1 - tolerance
    return {
      measure: label,
      unit,
      old: round(old, 3),
      new: round(now, 3),
      ratio: round(ratio, 3),
      verdict: pass ? 'PASS' : 'FAIL',
    }
  })
}
