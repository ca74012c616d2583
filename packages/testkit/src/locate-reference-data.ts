import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

/**
 * The repository's `data/reference/` folder (the public data its tests and benchmarks use, and the spec's test
 * vectors), found by walking up from `from` to the folder holding `pnpm-workspace.yaml`. Nothing outside the
 * repository is read, so a clone alone runs its tests.
 *
 * @example
 * const sdn = join(locateReferenceData(__dirname), 'ofac-sdn-2021', 'sdn.csv')
 */
export function locateReferenceData(from: string = process.cwd()): string {
  let dir = resolve(from)
  while (!existsSync(join(dir, 'pnpm-workspace.yaml'))) {
    const parent = dirname(dir)
    if (parent === dir) throw new Error(`no pnpm-workspace.yaml above ${from}`)
    dir = parent
  }
  const reference = join(dir, 'data', 'reference')
  if (!existsSync(reference))
    throw new Error(`data/reference/ not found in the repository (looked at ${reference})`)
  return reference
}
