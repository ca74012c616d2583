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

/**
 * Megabytes held after a collection: the heap and what lives outside it, array buffers and the screening
 * kernel's WebAssembly memories (`external` counts both; `arrayBuffers` alone misses the latter).
 */
export function memoryHeldMb(): number {
  global.gc?.()
  const { heapUsed, external } = process.memoryUsage()
  return (heapUsed + external) / 1024 / 1024
}
