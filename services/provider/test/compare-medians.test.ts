import { compareMedians } from '../bench/compare-medians'
import type { ProviderMeasures } from '../bench/measure-provider'

// The verdict of `pnpm --filter @pf/provider bench:compare`: medians, new/old, within the tolerance.
const run = (inlineMs: number, s3Seconds: number, screeningP95Ms: number, requestsPerSecond: number) =>
  ({ inlineMs, s3Seconds, screeningP95Ms, requestsPerSecond }) satisfies ProviderMeasures

describe('compareMedians', () => {
  it("compares each measure's median, not its mean: one outlier run changes nothing", () => {
    const old = [run(100, 4, 2, 1000), run(102, 4.1, 2.1, 990), run(98, 3.9, 9, 1010)]
    const now = [run(101, 4, 2, 1000), run(500, 4, 2.05, 300), run(99, 4.1, 2, 1005)]
    const verdicts = compareMedians({ old, new: now })
    expect(verdicts.map((v) => [v.old, v.new, v.verdict])).toEqual([
      [100, 101, 'PASS'],
      [4, 4, 'PASS'],
      [2.1, 2, 'PASS'],
      [1000, 1000, 'PASS'],
    ])
  })

  it('fails a time more than 5 % longer, and requests per second more than 5 % fewer; a gain always passes', () => {
    const [inline, s3, screening, rps] = compareMedians({
      old: [run(100, 4, 2, 1000)],
      new: [run(106, 2, 2.1, 940)],
    })
    expect([inline?.verdict, inline?.ratio]).toEqual(['FAIL', 1.06])
    expect([s3?.verdict, s3?.ratio]).toEqual(['PASS', 0.5])
    expect([screening?.verdict, screening?.ratio]).toEqual(['PASS', 1.05])
    expect([rps?.verdict, rps?.ratio]).toEqual(['FAIL', 0.94])
  })

  it('takes another tolerance', () => {
    const verdicts = compareMedians({ old: [run(100, 4, 2, 1000)], new: [run(109, 4, 2, 1000)] }, 0.1)
    expect(verdicts[0]?.verdict).toBe('PASS')
  })
})
