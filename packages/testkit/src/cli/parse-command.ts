import { parseArgs, type ParseArgsConfig } from 'node:util'
import { UsageError, type CommandName } from './usage'

type Options = NonNullable<ParseArgsConfig['options']>

const str = { type: 'string' } as const
const list = { type: 'string', multiple: true } as const
const flag = { type: 'boolean' } as const
const COMMON: Options = { help: { ...flag, short: 'h' }, json: flag }
const RETRY: Options = { attempts: str, schedule: str, 'no-retry': flag, 'time-scale': str }
const TARGET: Options = { url: str, secret: str }

/** The options each command takes: anything else is a usage mistake (a typo is not ignored). */
const OPTIONS: Record<CommandName, Options> = {
  'webhook send': { ...COMMON, ...TARGET, ...RETRY, set: list },
  'webhook raw': { ...COMMON, ...TARGET, ...RETRY, body: str, signature: str },
  'webhook replay': { ...COMMON, ...TARGET, ...RETRY },
  query: {
    ...COMMON,
    provider: str,
    'api-key': str,
    param: list,
    delivery: str,
    bucket: str,
    prefix: str,
    's3-endpoint': str,
    show: str,
  },
  issuer: { ...COMMON, port: str, host: str, iss: str },
  'conformance provider': {
    ...COMMON,
    url: str,
    'api-key': str,
    endpoint: str,
    parameters: str,
    'callback-url': str,
    's3-endpoint': str,
    'default-bucket': str,
    bucket: str,
    bind: str,
  },
  'conformance receiver': { ...COMMON, ...TARGET, ca: str },
  token: {
    ...COMMON,
    issuer: str,
    'user-id': str,
    'org-id': str,
    'application-id': str,
    email: str,
    'expires-in': str,
  },
}

export type CommandValues = Record<string, string | boolean | string[] | undefined>

export interface ParsedCommand {
  command: CommandName | 'help'
  /** The positional arguments after the command's name (`<kind>`, `<webhookId>`, `<companies|sanctions>`). */
  args: string[]
  values: CommandValues
}

/** Which command `argv` names, from its first words, before its options are known. */
function commandOf(argv: string[]): CommandName | 'help' {
  const [first, second] = argv
  // No command is a mistake (exit 2, on stderr), as the exit codes say; asking for help is not.
  if (first === undefined) throw new UsageError('which command? (pf-sim --help lists them)')
  if (first === 'help' || first === '--help' || first === '-h') return 'help'
  if (first === 'webhook') {
    const name = `webhook ${second ?? ''}` as CommandName
    if (name in OPTIONS) return name
    throw new UsageError(
      second && !second.startsWith('-')
        ? `unknown webhook command "${second}" (send, raw or replay)`
        : 'which webhook command? send, raw or replay',
    )
  }
  if (first === 'conformance') {
    const name = `conformance ${second ?? ''}` as CommandName
    if (name in OPTIONS) return name
    throw new UsageError(
      second && !second.startsWith('-')
        ? `unknown conformance suite "${second}" (provider or receiver)`
        : 'which conformance suite? provider or receiver',
    )
  }
  if (first in OPTIONS && !first.includes(' ')) return first as CommandName
  throw new UsageError(`unknown command "${first}"`)
}

/** Edit distance, for `did you mean`: a typo is one or two letters away from the option meant. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i += 1) {
    const next = [i]
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (row[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1)
      next[j] = Math.min((row[j] as number) + 1, (next[j - 1] as number) + 1, substitution)
    }
    row = next
  }
  return row[b.length] as number
}

const closestOption = (typed: string, names: string[]) =>
  names
    .map((name) => ({ name, d: distance(typed.replace(/^-+/, ''), name) }))
    .filter(({ d }) => d <= 2)
    .sort((x, y) => x.d - y.d)[0]?.name

/**
 * pf-sim's command line: the command, then only that command's options, strictly (node's parseArgs). Its own
 * messages become usage mistakes: `unknown option "--sett"`, `option "--url" needs a value`.
 */
export function parseCommand(argv: string[]): ParsedCommand {
  const command = commandOf(argv)
  if (command === 'help') return { command, args: [], values: {} }
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: OPTIONS[command],
      allowPositionals: true,
    })
    return { command, args: positionals.slice(command.split(' ').length), values: values as CommandValues }
  } catch (error) {
    const { code, message } = error as Error & { code?: string }
    const option = /'([^']+)'/.exec(message)?.[1]
    const name = option?.split(' ')[0] ?? ''
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const near = closestOption(name, Object.keys(OPTIONS[command]))
      throw new UsageError(
        `unknown option "${name}" for ${command}${near ? ` (did you mean --${near}?)` : ''}`,
        command,
      )
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE')
      throw new UsageError(
        message.includes('missing') ? `option "${name}" needs a value` : `option "${name}" takes no value`,
        command,
      )
    throw new UsageError(message, command)
  }
}
