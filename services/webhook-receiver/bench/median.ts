/** The middle value of a sample: benchmarks alternate rounds and keep the median. */
export const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
