import { checkProductionSecrets, createEnvReader, type ConfigError, type SecretRule } from '@pf/service-kit'

/** The problems `done()` reports and the warnings returned, for one environment and set of rules. */
function check(env: Record<string, string>, rules: SecretRule[]) {
  const reader = createEnvReader(env)
  const warnings = checkProductionSecrets(reader, rules)
  try {
    reader.done()
    return { problems: [], warnings }
  } catch (error) {
    return { problems: (error as ConfigError).problems, warnings }
  }
}

const PRODUCTION = { NODE_ENV: 'production' }
const GENERATED = 'the platform generates it'

describe('checkProductionSecrets (NODE_ENV=production)', () => {
  it('refuses a secret under its minimum length by default (the rule of every other setting)', () => {
    expect(check(PRODUCTION, [{ name: 'API_KEY', values: ['short'], minBytes: 16 }])).toEqual({
      problems: ['API_KEY must be at least 16 bytes when NODE_ENV=production (got 5)'],
      warnings: [],
    })
  })

  it('only warns about a short secret the operator cannot choose (warnWhenShort), counting UTF-8 bytes', () => {
    const rules = [
      { name: 'PF_WEBHOOK_SECRET', values: ['whsec_ünïcode'], minBytes: 32, warnWhenShort: GENERATED },
    ]
    expect(check(PRODUCTION, rules)).toEqual({
      problems: [],
      warnings: ['PF_WEBHOOK_SECRET is 15 bytes, under 32: accepted, as the platform generates it'],
    })
  })

  it('still refuses a placeholder where a short value is only a warning', () => {
    const rules = [
      { name: 'PF_WEBHOOK_SECRET', values: ['change-me'], minBytes: 32, warnWhenShort: GENERATED },
    ]
    expect(check(PRODUCTION, rules)).toEqual({
      problems: [
        'PF_WEBHOOK_SECRET holds a placeholder or public value: set your own secret when NODE_ENV=production',
      ],
      warnings: [],
    })
  })

  it('accepts anything, and warns about nothing, outside production', () => {
    const rules = [
      { name: 'API_KEY', values: ['secret'], minBytes: 16 },
      { name: 'PF_WEBHOOK_SECRET', values: ['x'], minBytes: 32, warnWhenShort: GENERATED },
    ]
    expect(check({}, rules)).toEqual({ problems: [], warnings: [] })
  })
})
