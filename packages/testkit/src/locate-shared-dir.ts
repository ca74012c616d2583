import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

/**
 * The `shared/` folder that sits beside the repository (spec, test vectors, reference data): found by walking
 * up from `from` to the folder holding `pnpm-workspace.yaml`, then `../shared`.
 *
 * @example
 * const vectors = JSON.parse(readFileSync(join(locateSharedDir(), 'spec/test-vectors.json'), 'utf8'))
 */
export function locateSharedDir(from: string = process.cwd()): string {
  let dir = resolve(from)
  while (!existsSync(join(dir, 'pnpm-workspace.yaml'))) {
    const parent = dirname(dir)
    if (parent === dir) throw new Error(`no pnpm-workspace.yaml above ${from}`)
    dir = parent
  }
  const shared = resolve(dir, '..', 'shared')
  if (!existsSync(shared)) throw new Error(`shared/ not found beside the repository (looked at ${shared})`)
  return shared
}
