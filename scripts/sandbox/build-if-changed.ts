// `pnpm start`'s first step: builds only the packages with a source newer than what was built from it, and the
// packages that depend on them, so a second start takes seconds, not a full build.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

const workspaceRoot = join(__dirname, '..', '..')
const INPUTS = ['src', 'package.json', 'tsup.config.ts', 'tsconfig.json']

/** Every file under `path` (a file or a folder), with its modification time. */
function files(path: string): { path: string; mtimeMs: number }[] {
  if (!existsSync(path)) return []
  const stat = statSync(path)
  if (!stat.isDirectory()) return [{ path, mtimeMs: stat.mtimeMs }]
  return readdirSync(path).flatMap((name) => files(join(path, name)))
}

/** Workspace folders that build (`packages/*`, `services/*` with a tsup config). */
function buildable(root: string): string[] {
  return ['packages', 'services'].flatMap((group) =>
    readdirSync(join(root, group))
      .map((name) => join(root, group, name))
      .filter((dir) => existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'tsup.config.ts'))),
  )
}

export interface ChangedPackage {
  /** The package's name (`@pf/provider`). */
  name: string
  /** Its folder, relative to the workspace (`services/provider`). */
  dir: string
  /** The newest of its inputs, relative to the workspace, or `dist/ is missing`. */
  changed: string
}

/**
 * The packages whose dist is missing or older than one of their own inputs. Each is rebuilt with the packages
 * that depend on it (`pnpm --filter ...<name>`): a service bundles none of its libraries, but builds against
 * their types.
 */
export function changedPackages(root = workspaceRoot): ChangedPackage[] {
  return buildable(root).flatMap((dir) => {
    const inputs = INPUTS.flatMap((input) => files(join(dir, input)))
    const outputs = files(join(dir, 'dist'))
    const { name } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }
    const base = { name: name ?? relative(root, dir), dir: relative(root, dir) }
    if (outputs.length === 0) return [{ ...base, changed: 'dist/ is missing' }]
    const built = Math.min(...outputs.map((file) => file.mtimeMs))
    const newest = inputs.reduce((a, b) => (b.mtimeMs > a.mtimeMs ? b : a), { path: '', mtimeMs: 0 })
    return newest.mtimeMs > built ? [{ ...base, changed: relative(root, newest.path) }] : []
  })
}

/** `pnpm --filter` arguments that build the changed packages and what depends on them. */
export const buildFilters = (changed: ChangedPackage[]) =>
  changed.flatMap(({ name }) => ['--filter', `...${name}`])

/** Builds what changed since the last build (and what depends on it), saying what and why. */
export function buildIfChanged(root = workspaceRoot): void {
  const changed = changedPackages(root)
  if (changed.length === 0) {
    console.log('pnpm start: build is up to date (pnpm build forces one)')
    return
  }
  const what = changed.map(({ name, changed: file }) => `${name} (${file})`).join(', ')
  console.log(`pnpm start: building ${what} and the packages that depend on it`)
  // The workspace root depends on the libraries too, and its build is everything's: left out.
  const { name: rootName } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string }
  execFileSync('pnpm', [...buildFilters(changed), '--filter', `!${rootName}`, 'run', 'build'], {
    cwd: root,
    stdio: 'inherit',
  })
}

if (require.main === module) buildIfChanged()
