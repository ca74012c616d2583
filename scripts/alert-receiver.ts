// `pnpm alert-receiver`: a local receiver of watch alerts for the sandbox (services/provider/README.md,
// "Watches"): prints each batch that arrives and verifies its signature with @pf/signing.
import { parseArgs } from 'node:util'
import { startAlertReceiver } from './sandbox/start-alert-receiver'

const DEFAULT_PORT = 4300
const USAGE = `usage: pnpm alert-receiver --token <alertToken> [--port ${DEFAULT_PORT}] [--help]
  Listens on http://127.0.0.1:<port>/alerts for a watch's alert batches: each one's X-PF-Signature is
  verified with the watch's alertToken (as status callbacks are), the batch printed and acknowledged (200);
  a bad signature is answered 401. Point a watch at it: PUT /api/watches/<id> {"alertUrl":
  "http://127.0.0.1:${DEFAULT_PORT}/alerts","alertToken":"<alertToken>"} (the provider needs
  OUTBOUND_ALLOW_PRIVATE=true, as the sandbox's has). Ctrl-C stops it.`

function usageError(message: string): never {
  process.stderr.write(`alert-receiver: ${message}\n${USAGE}\n`)
  process.exit(2)
}

async function main() {
  // pnpm 10 hands a `--` on to the script.
  const argv = process.argv.slice(2).filter((arg) => arg !== '--')
  let values: { token?: string; port?: string; help?: boolean }
  try {
    ;({ values } = parseArgs({
      args: argv,
      options: { token: { type: 'string' }, port: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }))
  } catch (error) {
    usageError((error as Error).message)
  }
  if (values.help) return console.log(USAGE)
  if (!values.token) usageError("--token is required (the watch's alertToken)")
  const port = Number(values.port ?? DEFAULT_PORT)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    usageError(`--port must be a port (got "${values.port}")`)
  const receiver = await startAlertReceiver({ port, token: values.token })
  console.log(`alert receiver listening on ${receiver.url}`)
  const stop = () => void receiver.close().then(() => process.exit(0))
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

main().catch((error: unknown) => {
  process.stderr.write(`alert-receiver: ${(error as Error).message}\n`)
  process.exit(1)
})
