// `pnpm start`'s first step: builds the workspace only when a source is newer than what was built from it,
// so a second start takes seconds, not a full build.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

const workspaceRoot = join(__dirname, '..', '..')
const INPUTS = ['src', 'package.json', 'tsup.config.ts', 'tsconfig.json']

/** Every file under `path` (a file or a folder), with its modification time. */
function mtimes(path: string): number[] {
  if (!existsSync(path)) return []
  const stat = statSync(path)
  if (!stat.isDirectory()) return [stat.mtimeMs]
  return readdirSync(path).flatMap((name) => mtimes(join(path, name)))
}

/** Workspace folders that build (`packages/*`, `services/*` with a build script). */
function buildable(root: string): string[] {
  return ['packages', 'services'].flatMap((group) =>
    readdirSync(join(root, group))
      .map((name) => join(root, group, name))
      .filter((dir) => existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'tsup.config.ts'))),
  )
}

/** The first folder whose dist is missing or older than one of its inputs, or undefined when all are fresh. */
export function staleBuild(root = workspaceRoot): string | undefined {
  const dirs = buildable(root)
  // Services run their libraries' dist and build against their types: one change anywhere rebuilds it all.
  const newestInput = Math.max(...dirs.flatMap((dir) => INPUTS.flatMap((input) => mtimes(join(dir, input)))))
  return dirs.find((dir) => {
    const outputs = mtimes(join(dir, 'dist'))
    return outputs.length === 0 || Math.min(...outputs) < newestInput
  })
}

if (require.main === module) {
  const stale = staleBuild()
  if (stale === undefined) {
    console.log('pnpm start: build is up to date (pnpm build forces one)')
  } else {
    console.log(
      `pnpm start: building (${stale.slice(workspaceRoot.length + 1)} changed since its last build)`,
    )
    execFileSync('pnpm', ['run', 'build'], { cwd: workspaceRoot, stdio: 'inherit' })
  }
}
