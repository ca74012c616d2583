import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

// The published libraries must load with both `import` and `require` on Node 20+ and ship their types
// (service contract, "Published packages"). These run against dist/, which `pnpm test` builds first.
const root = join(__dirname, '..')
const libraries = [
  { dir: 'packages/signing', name: '@pf/signing', exportName: 'signWebhook' },
  { dir: 'packages/schemas', name: '@pf/schemas', exportName: 'validateQueryEnvelope' },
  { dir: 'packages/testkit', name: '@pf/testkit', exportName: 'startRedis' },
  { dir: 'packages/idp-clients', name: '@pf/idp-clients', exportName: 'createRealmClient' },
]

// Self-reference: inside a package folder, its own name resolves through its `exports` map, as for a consumer.
const run = (cwd: string, args: string[]) =>
  execFileSync(process.execPath, args, { cwd, encoding: 'utf8' }).trim()

describe.each(libraries)('$name as published', ({ dir, name, exportName }) => {
  const cwd = join(root, dir)

  it('loads with require()', () => {
    expect(run(cwd, ['-e', `console.log(typeof require('${name}').${exportName})`])).toBe('function')
  })

  it('loads with import', () => {
    const code = `import { ${exportName} } from '${name}'; console.log(typeof ${exportName})`
    expect(run(cwd, ['--input-type=module', '-e', code])).toBe('function')
  })

  it('ships .d.ts for both module systems, named in its exports map with types first', () => {
    const pkg = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8'))
    for (const condition of ['import', 'require'] as const) {
      const entry = pkg.exports['.'][condition]
      expect(Object.keys(entry)[0]).toBe('types')
      expect(existsSync(join(cwd, entry.types))).toBe(true)
    }
    expect(pkg.sideEffects).toBe(false)
  })

  it('never reads process.env', () => {
    for (const file of ['dist/index.js', 'dist/index.mjs']) {
      expect(readFileSync(join(cwd, file), 'utf8')).not.toMatch(/process\.env/)
    }
  })
})
