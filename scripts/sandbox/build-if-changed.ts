// `pnpm start`'s first step: builds only the packages with a source newer than what was built from it, and of
// the packages that depend on them only those their build could change, so a second start takes seconds.
import { createHash } from 'node:crypto'
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
  return readdirSync(path)
    .sort()
    .flatMap((name) => files(join(path, name)))
}

interface Manifest {
  name?: string
  dependencies?: Record<string, string>
  devDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
}

/** A workspace package that builds (`packages/*`, `services/*` with a tsup config), as the build sees it. */
interface Buildable {
  name: string
  dir: string
  manifest: Manifest
  tsupConfig: string
}

function buildable(root: string): Buildable[] {
  return ['packages', 'services'].flatMap((group) =>
    readdirSync(join(root, group))
      .map((name) => join(root, group, name))
      .filter((dir) => existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'tsup.config.ts')))
      .map((dir) => {
        const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest
        const tsupConfig = readFileSync(join(dir, 'tsup.config.ts'), 'utf8')
        return { name: manifest.name ?? relative(root, dir), dir, manifest, tsupConfig }
      }),
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

/** The packages whose dist is missing or older than one of their own inputs. */
export function changedPackages(root = workspaceRoot): ChangedPackage[] {
  return buildable(root).flatMap(({ name, dir }) => {
    const inputs = INPUTS.flatMap((input) => files(join(dir, input)))
    const outputs = files(join(dir, 'dist'))
    const base = { name, dir: relative(root, dir) }
    if (outputs.length === 0) return [{ ...base, changed: 'dist/ is missing' }]
    const built = Math.min(...outputs.map((file) => file.mtimeMs))
    const newest = inputs.reduce((a, b) => (b.mtimeMs > a.mtimeMs ? b : a), { path: '', mtimeMs: 0 })
    return newest.mtimeMs > built ? [{ ...base, changed: relative(root, newest.path) }] : []
  })
}

/** The emitted type declarations of a package, as one hash (undefined: it has none). */
function declarationsOf(dir: string): string | undefined {
  const declarations = files(join(dir, 'dist')).filter(({ path }) => /\.d\.[cm]?ts$/.test(path))
  if (declarations.length === 0) return undefined
  const hash = createHash('sha256')
  for (const { path } of declarations)
    hash.update(relative(dir, path)).update('\0').update(readFileSync(path))
  return hash.digest('hex')
}

/** Whether `pkg`'s own source imports `name` (a test's import does not count: the build never reads it). */
function importsPackage(pkg: Buildable, name: string): boolean {
  const pattern = new RegExp(
    `(from|import|require\\()\\s*\\(?['"]${name.replace(/[/.]/g, '\\$&')}(/[^'"]*)?['"]`,
  )
  return files(join(pkg.dir, 'src')).some(({ path }) => pattern.test(readFileSync(path, 'utf8')))
}

/**
 * Whether `pkg`'s build copies `name`'s code into its own output: tsup leaves out what `dependencies` and
 * `peerDependencies` name, unless its config's `noExternal` takes it in; anything else it imports is bundled.
 */
function bundles(pkg: Buildable, name: string): boolean {
  if (!importsPackage(pkg, name)) return false
  const { dependencies = {}, peerDependencies = {} } = pkg.manifest
  const external = name in dependencies || name in peerDependencies
  const takenIn = new RegExp(`noExternal[^\\]]*['"]${name.replace(/[/.]/g, '\\$&')}['"]`).test(pkg.tsupConfig)
  return !external || takenIn
}

const emitsDeclarations = (pkg: Buildable) => /\bdts\s*:/.test(pkg.tsupConfig)

const dependsOn = (pkg: Buildable, name: string) => {
  const { dependencies = {}, devDependencies = {}, peerDependencies = {} } = pkg.manifest
  return name in dependencies || name in devDependencies || name in peerDependencies
}

/** Whether `pkg`, which depends on `name`, is rebuilt after `name` was, and why (or why not). */
function rebuildReason(pkg: Buildable, name: string, declarationsChanged: boolean) {
  if (!importsPackage(pkg, name)) return { rebuild: false, text: `its source imports no ${name}` }
  if (bundles(pkg, name)) return { rebuild: true, text: `it bundles ${name}` }
  if (!emitsDeclarations(pkg))
    return { rebuild: false, text: `it loads ${name} at run time and emits no declarations` }
  return declarationsChanged
    ? { rebuild: true, text: `${name}'s declarations changed` }
    : { rebuild: false, text: `it bundles no ${name}, whose declarations are unchanged` }
}

/** A package built, or one left as it was, and why. */
export interface BuildDecision {
  name: string
  why: string
}

export interface BuildReport {
  built: BuildDecision[]
  /** Dependents of a built package that were not rebuilt, and why not. */
  kept: BuildDecision[]
}

/** Runs the packages' own `build` scripts (pnpm orders them by their dependencies). */
function pnpmBuild(root: string, names: string[]): void {
  execFileSync('pnpm', [...names.flatMap((name) => ['--filter', name]), 'run', 'build'], {
    cwd: root,
    stdio: 'inherit',
  })
}

export interface BuildIfChangedOptions {
  root?: string
  /** Builds the packages named (default: `pnpm --filter <each> run build` in `root`). */
  build?: (root: string, names: string[]) => void
  print?: (line: string) => void
}

/**
 * Builds what changed since the last build, then, round by round, each package that depends on one just built
 * only when its build could come out different: it bundles that package's code, or it emits declarations of its
 * own and that package's emitted declarations changed. A dependent that only `require`s a package at run time
 * (every service: tsup leaves out their `dependencies`) is left as it is. Says what it built and kept, and why.
 */
export function buildIfChanged({
  root = workspaceRoot,
  build = pnpmBuild,
  print = (line) => console.log(line),
}: BuildIfChangedOptions = {}): BuildReport {
  const packages = buildable(root)
  const report: BuildReport = { built: [], kept: [] }
  let round: BuildDecision[] = changedPackages(root).map(({ name, changed }) => ({
    name,
    why: changed === 'dist/ is missing' ? changed : `${changed} changed`,
  }))
  if (round.length === 0) {
    print('pnpm start: build is up to date (pnpm build forces one)')
    return report
  }
  while (round.length > 0) {
    print(`pnpm start: building ${round.map(({ name, why }) => `${name} (${why})`).join(', ')}`)
    const dirOf = (name: string) => packages.find((pkg) => pkg.name === name)?.dir ?? ''
    const before = new Map(round.map(({ name }) => [name, declarationsOf(dirOf(name))]))
    build(
      root,
      round.map(({ name }) => name),
    )
    report.built.push(...round)
    const done = new Set(report.built.map(({ name }) => name))
    const next = new Map<string, BuildDecision>()
    for (const { name } of round) {
      const declarationsChanged = declarationsOf(dirOf(name)) !== before.get(name)
      for (const pkg of packages.filter((p) => !done.has(p.name) && dependsOn(p, name))) {
        const why = rebuildReason(pkg, name, declarationsChanged)
        if (why.rebuild) next.set(pkg.name, { name: pkg.name, why: why.text })
        else if (!next.has(pkg.name)) report.kept.push({ name: pkg.name, why: why.text })
      }
    }
    round = [...next.values()]
  }
  // A package kept in one round and built in a later one was built.
  const built = new Set(report.built.map(({ name }) => name))
  report.kept = report.kept.filter(
    ({ name }, index, all) => !built.has(name) && all.findIndex((k) => k.name === name) === index,
  )
  return report
}

if (require.main === module) buildIfChanged()
