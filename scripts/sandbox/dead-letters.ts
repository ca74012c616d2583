// `pnpm dead-letters list|show|replay` from the repository's root: the built pf-dead-letters, pointed at the
// sandbox's queue when exactly one runs and the environment names no queue (README, "Walkthrough").
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join, relative } from 'node:path'
import { chooseSandboxQueue, queueSettings } from './choose-sandbox-queue'
import { sandboxHome } from './sandbox-home'

const root = join(__dirname, '..', '..')
const cli = join(root, 'services', 'webhook-receiver', 'dist', 'dead-letters.js')
const say = (line: string) => process.stderr.write(`pnpm dead-letters: ${line}\n`)

function main(): number {
  const args = process.argv.slice(2).filter((arg) => arg !== '--')
  if (!existsSync(cli)) {
    say(`${relative(root, cli)} is missing: run pnpm build first`)
    return 1
  }
  const env = { ...process.env }
  // Help and usage mistakes are the command's own: no queue is read for them.
  if (['list', 'show', 'replay'].includes(args[0] ?? '')) {
    const home = sandboxHome(root)
    const choice = chooseSandboxQueue(env, home)
    const where = (dir: string) => (relative(root, dir).startsWith('..') ? dir : relative(root, dir) || '.')
    if (choice.kind === 'several') {
      say(`${choice.sandboxes.length} sandboxes are running; choose one by its settings:`)
      for (const sandbox of choice.sandboxes)
        process.stderr.write(
          `  ${where(sandbox.dir)}  pid ${sandbox.pid}\n    ${queueSettings(sandbox)} pnpm dead-letters ${args.join(' ')}\n`,
        )
      return 2
    }
    if (choice.kind === 'sandbox') {
      const { sandbox } = choice
      say(`the sandbox of ${where(sandbox.dir)} (pid ${sandbox.pid}): ${queueSettings(sandbox)}`)
      Object.assign(env, sandbox.jobSettings, {
        REDIS_URL: sandbox.redisUrl,
        WEBHOOK_QUEUE_PREFIX: sandbox.queuePrefix,
      })
    }
    if (choice.kind === 'none')
      say(
        `no sandbox is running (none recorded in ${where(home)}): REDIS_URL and WEBHOOK_QUEUE_PREFIX or their defaults`,
      )
  }
  return spawnSync(process.execPath, [cli, ...args], { env, stdio: 'inherit' }).status ?? 1
}

process.exit(main())
