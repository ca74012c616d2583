/** The middle value of a sample: benchmarks alternate rounds and keep the median. */
export const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0

/** Percentile of a sample (nearest rank). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN
}

/** min / median / max of a sample, rounded, as one cell of the table. */
export const spread = (values: number[], digits = 0) =>
  [Math.min(...values), median(values), Math.max(...values)].map((v) => v.toFixed(digits)).join(' / ')
