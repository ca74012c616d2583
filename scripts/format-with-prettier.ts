import { spawnSync } from 'node:child_process'
import { join } from 'node:path'

const root = join(__dirname, '..')

/**
 * `text` as `prettier --check` wants the file at `path` (from the repository root, with its .prettierrc):
 * through the CLI, whose plugins load by dynamic import, which Jest's module system does not allow in process.
 * The generators of committed files (monitoring, interface docs) format with it, so their tests can compare.
 */
export function formatWithPrettier(path: string, text: string): string {
  const bin = require.resolve('prettier/bin/prettier.cjs')
  const result = spawnSync(process.execPath, [bin, '--stdin-filepath', path], {
    cwd: root,
    input: text,
    encoding: 'utf8',
  })
  if (result.status !== 0) throw new Error(`prettier could not format ${path}: ${result.stderr}`)
  return result.stdout
}
