#!/usr/bin/env node
// pf-sim: the platform's side of every interface, from a terminal. `pf-sim --help` lists the commands.
// The AWS SDK's notice that its 2027 releases need Node 22 is not pf-sim's to show (it reads S3 for pf_s3_sync).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'
import { conformanceProvider, conformanceReceiver } from './conformance-commands'
import { issuerCommand, tokenCommand } from './jwt-commands'
import { parseCommand, type CommandValues } from './parse-command'
import { queryCommand } from './query-command'
import { CommandFailure, HELP, USAGE, UsageError, usageLine, type CommandName } from './usage'
import { webhookRaw, webhookReplay, webhookSend } from './webhook-commands'

type Command = (args: string[], values: CommandValues) => Promise<number>

const COMMANDS: Record<CommandName, Command> = {
  'webhook send': webhookSend,
  'webhook raw': webhookRaw,
  'webhook replay': webhookReplay,
  query: queryCommand,
  issuer: issuerCommand,
  token: tokenCommand,
  'conformance provider': conformanceProvider,
  'conformance receiver': conformanceReceiver,
}

/** Runs one command line; the exit code: 0 done, 1 failed, 2 a usage mistake. */
export async function main(argv: string[]): Promise<number> {
  try {
    const { command, args, values } = parseCommand(argv)
    if (command === 'help') {
      console.log(HELP)
      return 0
    }
    if (values.help) {
      console.log(USAGE[command])
      return 0
    }
    return await COMMANDS[command](args, values)
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`pf-sim: ${error.message}\n${usageLine(error.command)}\n`)
      return 2
    }
    // A failure is one line: what failed and why, never a stack trace.
    const message =
      error instanceof CommandFailure ? error.message : `${(error as Error)?.message ?? String(error)}`
    process.stderr.write(`pf-sim: ${message}\n`)
    return 1
  }
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code
})
