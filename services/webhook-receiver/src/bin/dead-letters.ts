import { runCommand } from '@pf/service-kit'
import { loadDeadLettersConfig } from '../config'
import { deadLettersCommand } from '../worker/dead-letters-command'

runCommand(
  'pf-dead-letters',
  () => deadLettersCommand(process.argv.slice(2), () => loadDeadLettersConfig(process.env)),
  { env: process.env },
)
