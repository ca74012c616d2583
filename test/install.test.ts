import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createCleanup } from '@pf/testkit'

// `pnpm install` on a fresh clone prints no warning: every dependency with a build script is either allowed to
// run it (onlyBuiltDependencies) or ignored with its reason (ignoredBuiltDependencies, pnpm-workspace.yaml).
// A fresh clone, not this checkout: pnpm remembers the builds it ignored in node_modules/.modules.yaml and
// repeats that warning until the next full install, whatever the workspace file now says.
const root = join(__dirname, '..')
const cleanup = createCleanup(afterAll)

/** The files `pnpm install` reads: the root's and each workspace package's manifest, and the bins they name. */
function manifests(): string[] {
  const packages = ['packages', 'services'].flatMap((group) =>
    readdirSync(join(root, group)).map((name) => `${group}/${name}`),
  )
  return [
    'package.json',
    'pnpm-workspace.yaml',
    'pnpm-lock.yaml',
    ...packages.flatMap((dir) => {
      const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as {
        bin?: Record<string, string>
      }
      // A bin built into dist/ is linked whether or not it exists; one in the sources must be there.
      const bins = Object.values(manifest.bin ?? {}).filter((bin) => !bin.includes('dist/'))
      return [`${dir}/package.json`, ...bins.map((bin) => join(dir, bin))]
    }),
  ]
}

describe('pnpm install', () => {
  it('on a fresh clone prints no warning, ignored build scripts included', () => {
    const clone = cleanup.add(mkdtempSync(join(tmpdir(), 'pf-install-')), (dir) =>
      rmSync(dir, { recursive: true, force: true }),
    )
    for (const file of manifests()) {
      mkdirSync(dirname(join(clone, file)), { recursive: true })
      copyFileSync(join(root, file), join(clone, file))
    }
    // Offline: the store already holds every package (this checkout was installed from it).
    const install = spawnSync('pnpm', ['install', '--frozen-lockfile', '--offline'], {
      cwd: clone,
      encoding: 'utf8',
      env: { ...process.env, CI: 'true' },
    })
    const output = `${install.stdout}${install.stderr}`
    expect({ status: install.status, output }).toEqual({ status: 0, output: expect.any(String) })
    expect(output).not.toMatch(/Ignored build scripts/)
    expect(output.split('\n').filter((line) => /\bWARN\b|Warning/.test(line))).toEqual([])
  })
})
