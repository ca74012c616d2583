import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'

// data/reference/README.md lists every file kept there with its SHA-256: the copies of public data and of the
// spec's test vectors that the tests and benchmarks read. A file that changed, went missing or came without a
// row fails here by name, before any test's numbers drift silently.
const reference = join(__dirname, '..', 'data', 'reference')
const readme = readFileSync(join(reference, 'README.md'), 'utf8')

const listed = new Map(
  [...readme.matchAll(/^\|\s*`([^`]+)`\s*\|\s*\d+\s*\|\s*([0-9a-f]{64})\s*\|$/gm)].map(([, file, sha]) => [
    file!,
    sha!,
  ]),
)
const filesIn = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesIn(join(dir, entry.name)) : [relative(reference, join(dir, entry.name))],
  )
const sha256 = (file: string) =>
  createHash('sha256')
    .update(readFileSync(join(reference, file)))
    .digest('hex')

describe('data/reference: every file as its README records it (source, licence, SHA-256)', () => {
  it('lists the files of the README table', () => {
    expect(listed.size).toBeGreaterThan(10)
  })

  it('has a README row for every file kept there', () => {
    const unlisted = filesIn(reference).filter((file) => file !== 'README.md' && !listed.has(file))
    expect(unlisted).toEqual([])
  })

  it.each([...listed])('%s has the SHA-256 its README row gives', (file, expected) => {
    if (!existsSync(join(reference, file)))
      throw new Error(
        `data/reference/${file} is missing: restore it (git checkout -- data/reference/${file})`,
      )
    const actual = sha256(file)
    if (actual !== expected)
      throw new Error(
        `data/reference/${file} changed: its SHA-256 is ${actual}, its README row says ${expected}. ` +
          'Reference files are kept as published: restore it with git checkout, or add a newer release as a ' +
          'new file with its own row.',
      )
  })
})
