// The 2024 SDN rows of `pnpm bench` alone, to run beside a CPU hog with a profile (bench/HISTORY.md, "Scale"):
//   node bench/sdn-profile.cjs                  (bundled by `pnpm bench`'s esbuild command with this entry)
//   yes > /dev/null & node --cpu-prof --cpu-prof-dir=/tmp/prof bench/sdn-profile.cjs; kill %1
//   node bench/sdn-profile.cjs --summary /tmp/prof/<file>.cpuprofile
import { readFileSync } from 'node:fs'
import { benchSdn } from './sanctions.bench'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  hitCount?: number
}

/** The functions that took most of a V8 CPU profile's samples (self time), with their share. */
function summary(path: string, top = 15) {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as {
    nodes: ProfileNode[]
    startTime: number
    endTime: number
    timeDeltas: number[]
  }
  const self = new Map<string, number>()
  let total = 0
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame
    const key = `${functionName || '(anonymous)'} ${url.split('/').pop()}:${lineNumber + 1}`
    self.set(key, (self.get(key) ?? 0) + (node.hitCount ?? 0))
    total += node.hitCount ?? 0
  }
  // Gaps between samples far over the sampling interval are time the process was not running (preempted).
  const gaps = profile.timeDeltas.filter((delta) => delta > 4000)
  const wallMs = (profile.endTime - profile.startTime) / 1000
  const rows = [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([fn, hits]) => ({ function: fn, selfPercent: Math.round((1000 * hits) / total) / 10 }))
  const lost = gaps.reduce((sum, delta) => sum + delta, 0) / 1000
  return [
    ...rows,
    { function: `samples ${total} over ${Math.round(wallMs)} ms`, selfPercent: 100 },
    {
      function: `sampling gaps over 4 ms: ${gaps.length}, ${Math.round(lost)} ms`,
      selfPercent: Math.round((1000 * lost) / wallMs) / 10,
    },
  ]
}

const at = process.argv.indexOf('--summary')
console.table(at > 0 ? summary(process.argv[at + 1] as string) : benchSdn())
