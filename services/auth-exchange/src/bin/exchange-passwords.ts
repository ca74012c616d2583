// `node dist/exchange-passwords.js remove`: removes the passwords the exchange set (EXCHANGE_GRANT password-less).
import { runCommand } from '@pf/service-kit'
import { loadExchangeConfig } from '../config'
import { exchangePasswordsCommand } from '../exchange-passwords-command'

runCommand(
  'pf-exchange-passwords',
  () => exchangePasswordsCommand(process.argv.slice(2), () => loadExchangeConfig(process.env)),
  { env: process.env },
)
