import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'

// A clone alone runs its tests and benchmarks: they read data from the repository (data/reference), never from
// the spec's folder beside it (shared/) or any other place outside. Documents and comments may still link to
// the spec; code that builds a path may not leave the repository.
const root = resolve(__dirname, '..')
const self = relative(root, __filename)

const codeUnder = (dir: string): string[] =>
  (existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : []).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return ['node_modules', 'dist'].includes(entry.name) ? [] : codeUnder(path)
    return /\.(ts|cjs|mjs|js)$/.test(entry.name) && entry.name !== 'bundle.cjs' ? [path] : []
  })
const workspaces = ['packages', 'services'].flatMap((group) =>
  readdirSync(join(root, group)).map((name) => join(root, group, name)),
)
const sources = [
  ...workspaces.flatMap((dir) => ['test', 'bench', 'scripts'].flatMap((sub) => codeUnder(join(dir, sub)))),
  ...codeUnder(join(root, 'test')),
  ...codeUnder(join(root, 'scripts')),
  ...readdirSync(root)
    .filter((name) => /^jest\..*\.cjs$/.test(name))
    .map((name) => join(root, name)),
]
  .map((path) => relative(root, path))
  .filter((path) => path !== self)

const read = (file: string) => readFileSync(join(root, file), 'utf8')

describe('tests and benchmarks read nothing outside the repository', () => {
  it('scans the test, bench and script sources of every workspace', () => {
    expect(sources).toEqual(
      expect.arrayContaining([
        'services/provider/test/support-data.ts',
        'services/provider/bench/sanctions.bench.ts',
        'packages/signing/test/vectors.test.ts',
        'test/e2e.test.ts',
      ]),
    )
  })

  it.each([
    ['the ../shared folder', /\.\.\/shared\b|'shared'|"shared"/],
    ['the removed locateSharedDir', /locateSharedDir/],
    ['an absolute path of this machine', /['"`]\/(work|home|root)\//],
  ])('no source names %s', (_what, pattern) => {
    expect(sources.filter((file) => pattern.test(read(file)))).toEqual([])
  })

  it('every path built from __dirname with literal parts stays inside the repository', () => {
    const outside: string[] = []
    for (const file of sources) {
      for (const [call, parts = ''] of read(file).matchAll(
        /\b(?:join|resolve)\(\s*__dirname((?:\s*,\s*(?:'[^']*'|"[^"]*"))*)/g,
      )) {
        const literals = [...parts.matchAll(/'([^']*)'|"([^"]*)"/g)].map(([, a, b]) => a ?? b ?? '')
        const target = resolve(dirname(join(root, file)), ...literals)
        if (target !== root && !target.startsWith(root + sep)) outside.push(`${file}: ${call.trim()}`)
      }
    }
    expect(outside).toEqual([])
  })
})
