// `pnpm env-examples`: writes services/<name>/.env.example from the "Settings" tables of the service's README,
// the root README's shared settings and its tracing (`OTEL_*`) settings, so they never disagree
// (test/env-example.test.ts checks it, and that every setting the service's config reader reads is in it).
// Every setting is listed with its default and meaning; those without a default are left to fill.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export const SERVICES = ['provider', 'webhook-receiver', 'auth-exchange'] as const
const root = join(__dirname, '..')

export interface Setting {
  names: string[]
  default: string
  meaning: string
}

const cells = (row: string) =>
  row
    .replace(/^\|/, '')
    .replace(/\|\s*$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim())

/** Markdown inline code and links, as plain text for a comment. */
const plain = (text: string) => text.replace(/`([^`]*)`/g, '$1').replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')

/** The rows of every table under the README's `heading` (up to the next `## `) that name settings. */
export function readmeSettings(readme: string, heading = '## Settings'): Setting[] {
  const start = readme.indexOf(`\n${heading}`)
  if (start < 0) return []
  const end = readme.indexOf('\n## ', start + 1)
  const section = readme.slice(start, end < 0 ? undefined : end)
  return section
    .split('\n')
    .filter((line) => /^\| `[A-Z][A-Z0-9_]+`/.test(line))
    .map((line) => {
      const [name = '', fallback = '', meaning = ''] = cells(line)
      return {
        names: [...name.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1] as string),
        default: plain(fallback),
        meaning: plain(meaning),
      }
    })
}

/** The value a line offers: the default when it is a literal one, else nothing. */
const valueOf = (fallback: string) => {
  const literal = /^[\w.:/,@{}-]+$/.test(fallback) && !/^(required|unset|none|AWS)$/i.test(fallback)
  return literal ? fallback : ''
}

/** A comment, wrapped at 100 columns. */
function comment(text: string): string[] {
  const lines: string[] = []
  let line = '#'
  for (const word of text.split(/\s+/)) {
    if (line.length + word.length + 1 > 100 && line !== '#') {
      lines.push(line)
      line = '#'
    }
    line += ` ${word}`
  }
  return [...lines, line]
}

/** The settings every service reads (`@pf/service-kit`), from the root README's table. */
export const SHARED_HEADING = '## Every service: limits, shutdown, logs and production mode'
/** The `OTEL_*` settings every service (and the dead-letter command) reads, from the root README's table. */
export const TRACES_HEADING = '## Traces (OpenTelemetry, W3C Trace Context)'

/**
 * Settings a service reads from another's table: the webhook worker with `IDP_SESSION_END=on` reads the
 * exchange's identity-provider settings (one reader, `@pf/idp-clients`' `readIdentityProviderSettings`).
 */
const BORROWED: Partial<Record<Service, { readme: string; names: RegExp; title: string }>> = {
  'webhook-receiver': {
    readme: 'services/auth-exchange/README.md',
    names: /^(REALM|TENANT)_/,
    title:
      'The worker with IDP_SESSION_END=on: the identity provider (services/auth-exchange/README.md, "Settings")',
  },
}

export type Service = (typeof SERVICES)[number]

const linesOf = (settings: Setting[], seen: Set<string>, { commented = false } = {}) =>
  settings.flatMap(({ names: all, default: fallback, meaning }) => {
    // A setting listed twice (the worker's table repeats the receiver's Redis settings) is written once.
    const names = all.filter((name) => !seen.has(name))
    names.forEach((name) => seen.add(name))
    if (names.length === 0) return []
    // `required for realm`: only for that style, so left commented like the others.
    const required = /^required$/i.test(fallback) && !commented
    // `3003, info` for `PORT`, `LOG_LEVEL`: one default each.
    const each = fallback.split(/,\s*/)
    const defaultOf = (name: string) =>
      each.length === all.length ? (each[all.indexOf(name)] ?? '') : fallback
    return [
      ...comment(`${meaning || '(see README.md)'}${fallback ? ` [default: ${fallback}]` : ''}`),
      ...names.map((name) => `${required ? '' : '# '}${name}=${required ? '' : valueOf(defaultOf(name))}`),
      '',
    ]
  })

/**
 * The .env.example of one service: a comment per setting, and the line commented out when it has a default;
 * its README's settings (and those it reads from another service's table), then the settings every service
 * shares and the tracing settings (the root README's). `read` reads a file of the repository.
 */
export function envExample(service: Service, read: (path: string) => string): string {
  const head = [
    `# ${service}: every setting, with its default and meaning (from README.md, "Settings"; regenerate with`,
    '# pnpm env-examples). Lines left commented keep their default; fill the uncommented ones. Never commit a .env.',
    '# Read it with `node --env-file=.env dist/main.js` (README.md at the root, "Settings from a file").',
    '',
  ]
  const rootReadme = read('README.md')
  const seen = new Set<string>()
  const borrowed = BORROWED[service]
  return [
    ...head,
    ...linesOf(readmeSettings(read(`services/${service}/README.md`)), seen),
    ...(borrowed
      ? [
          `# ${borrowed.title}`,
          '',
          ...linesOf(
            readmeSettings(read(borrowed.readme))
              .map((setting) => ({ ...setting, names: setting.names.filter((n) => borrowed.names.test(n)) }))
              .filter((setting) => setting.names.length > 0),
            seen,
            { commented: true },
          ),
        ]
      : []),
    '# Shared by every service (README.md at the root, "Every service")',
    '',
    ...linesOf(readmeSettings(rootReadme, SHARED_HEADING), seen),
    '# Traces: OpenTelemetry (README.md at the root, "Traces")',
    '',
    ...linesOf(readmeSettings(rootReadme, TRACES_HEADING), seen),
  ].join('\n')
}

const USAGE = `usage: pnpm env-examples [--help]
  Writes services/<name>/.env.example (${SERVICES.join(', ')})
  from the Settings tables of each service's README and the root README's shared settings.`

if (require.main === module) {
  const args = process.argv.slice(2).filter((arg) => arg !== '--') // pnpm 10 hands a `--` on
  const help = args.includes('--help') || args.includes('-h')
  if (help) console.log(USAGE)
  else if (args.length > 0) {
    process.stderr.write(`env-examples: unknown argument "${args[0]}"\n${USAGE}\n`)
    process.exitCode = 2
  }
  const read = (path: string) => readFileSync(join(root, path), 'utf8')
  for (const service of help || args.length > 0 ? [] : SERVICES) {
    writeFileSync(join(root, 'services', service, '.env.example'), envExample(service, read))
    console.log(`services/${service}/.env.example`)
  }
}
