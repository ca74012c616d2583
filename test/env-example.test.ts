import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { envExample, SERVICES } from '../scripts/env-example'

// Each service's .env.example lists every setting with its default and meaning, as its README does.
const root = join(__dirname, '..')
const read = (...path: string[]) => readFileSync(join(root, ...path), 'utf8')
const namesIn = (text: string) => new Set([...text.matchAll(/^(?:# )?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]))
/** Quoted setting names in a source file (`env.int('PORT', …)`, `['AWS_ACCESS_KEY_ID', …]`). */
const quotedNames = (source: string) =>
  [...source.matchAll(/'([A-Z][A-Z0-9_]{2,})'/g)].map((m) => m[1] as string)
// Not settings: the prefixes of `${'REALM' | 'TENANT'}_CLIENT_SECRET` in a message.
const NOT_SETTINGS = new Set(['REALM', 'TENANT'])

describe('.env.example per service', () => {
  it.each(SERVICES)(
    '%s: is what its README and the root README say (pnpm env-examples writes it)',
    (service) => {
      expect(read('services', service, '.env.example')).toBe(
        envExample(service, read('services', service, 'README.md'), read('README.md')),
      )
    },
  )

  it.each(SERVICES)('%s: lists every setting its config reads, the shared ones included', (service) => {
    const config = read('services', service, 'src', 'config.ts')
    const shared = [
      ...(config.includes('readOpsSettings')
        ? quotedNames(read('packages/service-kit/src/ops-settings.ts'))
        : []),
      ...(config.includes('readServerLimits')
        ? quotedNames(read('packages/service-kit/src/server-limits.ts'))
        : []),
    ]
    const listed = namesIn(read('services', service, '.env.example'))
    const missing = [...new Set([...quotedNames(config), ...shared])].filter(
      (name) => !NOT_SETTINGS.has(name) && !listed.has(name),
    )
    expect(missing).toEqual([])
  })
})
