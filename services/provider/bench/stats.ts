/** Percentile of a sample (nearest rank). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN
}

export const round = (value: number, digits = 2) => Number(value.toFixed(digits))

/** Milliseconds one call takes. */
export function time(run: () => unknown): number {
  const started = performance.now()
  run()
  return performance.now() - started
}

/** The middle value of a sample. */
export const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN
