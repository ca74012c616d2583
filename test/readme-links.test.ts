import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'

// A clone has what its documents point to: no link in a README (or a docs/ page) leads outside the repository,
// except to a public address; a link into the repository names a file or folder that is there, and a heading
// that is there when it names one (`#anchor`, as GitHub makes them).
const root = resolve(__dirname, '..')
const SKIPPED = new Set(['node_modules', 'dist', '.git', '.sandbox', 'coverage'])

const markdownUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : markdownUnder(path)
    return entry.name.endsWith('.md') ? [path] : []
  })

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens; repeats get -1, -2. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const anchors = new Set<string>()
  for (const [, heading] of withoutCode(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = (heading as string)
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-')
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  }
  return anchors
}

/** The text without fenced blocks and code spans, where a `[x](y)` is an example, not a link. */
const withoutCode = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '')

const linksIn = (markdown: string) =>
  [...withoutCode(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)|<(https?:\/\/[^>\s]+)>/g)].map(
    ([, target, bare]) => (target ?? bare) as string,
  )

/** Not a public address: this machine, a private network, or a name no public DNS holds. */
const isLocal = (host: string) =>
  /^(localhost|.*\.local|.*\.internal|.*\.localhost|0\.0\.0\.0|127\.\d+\.\d+\.\d+|10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+|172\.(1[6-9]|2\d|3[01])\.\d+\.\d+|\[::1?\]|[^.]+)$/i.test(
    host,
  )

function problemOf(file: string, target: string): string | undefined {
  if (/^mailto:/.test(target)) return undefined
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
    if (!/^https?:\/\//.test(target)) return 'not a web address'
    return isLocal(new URL(target).hostname) ? 'not a public address' : undefined
  }
  const [path = '', anchor] = target.split('#')
  const resolved = path === '' ? file : resolve(dirname(file), decodeURIComponent(path))
  if (resolved !== root && !resolved.startsWith(root + sep)) return 'outside the repository'
  if (!existsSync(resolved)) return 'no such file in the repository'
  if (anchor === undefined) return undefined
  const page = statSync(resolved).isDirectory() ? join(resolved, 'README.md') : resolved
  if (!page.endsWith('.md') || !existsSync(page)) return undefined
  return anchorsOf(readFileSync(page, 'utf8')).has(anchor) ? undefined : 'no such heading'
}

describe('links in the READMEs and docs/', () => {
  const files = markdownUnder(root)

  it('finds the READMEs and the interface reference', () => {
    expect(files.map((file) => relative(root, file))).toEqual(
      expect.arrayContaining([
        'README.md',
        'services/provider/README.md',
        'docs/README.md',
        'docs/provider.md',
      ]),
    )
  })

  it('every link leads to a file (and heading) in the repository or to a public address', () => {
    const broken = files.flatMap((file) =>
      linksIn(readFileSync(file, 'utf8')).flatMap((target) => {
        const problem = problemOf(file, target)
        return problem ? [`${relative(root, file)}: ${target} (${problem})`] : []
      }),
    )
    expect(broken).toEqual([])
  })

  it('tells a link outside the repository, a local address and a missing heading from good ones', () => {
    const readme = join(root, 'README.md')
    expect(problemOf(readme, '../beside-the-clone/spec.md')).toBe('outside the repository')
    expect(problemOf(readme, 'http://localhost:16686')).toBe('not a public address')
    expect(problemOf(readme, 'docs/README.md#no-such-heading')).toBe('no such heading')
    expect(problemOf(readme, 'docs/README.md#how-these-pages-are-made')).toBeUndefined()
    expect(problemOf(readme, 'https://github.com/anyascii/anyascii')).toBeUndefined()
  })
})
