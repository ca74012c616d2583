import { readFileSync } from 'node:fs'
import { join } from 'node:path'

// The READMEs are for using and changing the code: the root one opens with a quick start a newcomer can type,
// names no issue numbers (a user does not know them), and the provider's keeps its benchmark history beside the
// benchmarks. (The quick start's commands are run by test/walkthrough.test.ts, as part of the walkthrough.)
const root = join(__dirname, '..')
const read = (path: string) => readFileSync(join(root, path), 'utf8')

/** A section, from its heading to the next heading of the same level or above. */
const section = (markdown: string, heading: string) => {
  const start = markdown.indexOf(`\n${heading}\n`)
  const level = /^#+/.exec(heading)?.[0] ?? '##'
  const next = markdown.slice(start + 1).search(new RegExp(`\\n#{1,${level.length}} `))
  return start < 0 ? '' : markdown.slice(start, next < 0 ? undefined : start + 1 + next)
}

describe('the root README', () => {
  const readme = read('README.md')

  it('opens with a quick start of at most 10 lines, before everything else: install, start, each interface', () => {
    const quickStart = /^# [^\n]+\n\n```sh\n([\s\S]*?)\n```\n/.exec(readme)
    expect(quickStart).not.toBeNull()
    const lines = (quickStart?.[1] ?? '').split('\n')
    expect(lines.length + 2).toBeLessThanOrEqual(10)
    expect(lines[0]).toMatch(/^pnpm install\b/)
    expect(lines[1]).toMatch(/^pnpm start\b/)
    for (const interfaceCall of ['pf-sim webhook send', 'pf-sim query', '/auth/exchange'])
      expect(lines.join('\n')).toContain(interfaceCall)
  })

  it('has no status table of issue numbers, and no issue numbers at all', () => {
    expect(readme).not.toMatch(/^## Status/m)
    expect(readme).not.toMatch(/\bissues? \d+/i)
  })
})

describe('the provider README', () => {
  it('is about using and changing the code: the benchmark history is in bench/HISTORY.md, linked', () => {
    const benchmarks = section(read('services/provider/README.md'), '## Tests and benchmarks')
    expect(benchmarks).toContain('[`bench/HISTORY.md`](bench/HISTORY.md)')
    expect(benchmarks.split('\n').length).toBeLessThan(20)
    expect(benchmarks).not.toMatch(/\| -{3,}/) // no tables of figures
    const history = read('services/provider/bench/HISTORY.md')
    for (const pass of ['second', 'third', 'fourth', 'fifth', 'sixth'])
      expect(history).toContain(`**Scale, ${pass} pass`)
  })
})
