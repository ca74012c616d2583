import type { ConfigError } from '@pf/service-kit'
import { loadProviderConfig } from '../src/config'

const problemsOf = (env: Record<string, string>) => {
  try {
    loadProviderConfig(env)
    return []
  } catch (error) {
    return (error as ConfigError).problems
  }
}
const production = { NODE_ENV: 'production', PF_API_KEY: 'k'.repeat(40) }

describe('provider configuration', () => {
  it('drains long enough for a query in flight: delivery and callback, each up to OUTBOUND_TIMEOUT_MS', () => {
    expect(loadProviderConfig({}).server.drainTimeoutMs).toBe(25_000)
    expect(loadProviderConfig({ OUTBOUND_TIMEOUT_MS: '20000' }).server.drainTimeoutMs).toBe(45_000)
    expect(problemsOf({ OUTBOUND_TIMEOUT_MS: '10000', SHUTDOWN_DRAIN_MS: '15000' })).toEqual([
      expect.stringMatching(/^SHUTDOWN_DRAIN_MS must be at least twice OUTBOUND_TIMEOUT_MS \(20000\)/),
    ])
  })

  it('reads the shared server limits', () => {
    expect(loadProviderConfig({ HTTP_MAX_CONNECTIONS: '64' }).server).toMatchObject({
      maxConnections: 64,
      headersTimeoutMs: 10_000,
    })
  })

  it('refuses placeholder and short secrets when NODE_ENV=production, without echoing them', () => {
    expect(problemsOf(production)).toEqual([])
    const problems = problemsOf({
      NODE_ENV: 'production',
      PF_API_KEY: `change-me,short-key`,
      AWS_ACCESS_KEY_ID: 'change-me',
      AWS_SECRET_ACCESS_KEY: 'change-me',
    })
    expect(problems).toEqual([
      'PF_API_KEY holds a placeholder or public value: set your own secret when NODE_ENV=production',
      'PF_API_KEY must be at least 16 bytes when NODE_ENV=production (got 9)',
      'AWS_ACCESS_KEY_ID holds a placeholder or public value: set your own secret when NODE_ENV=production',
      'AWS_SECRET_ACCESS_KEY holds a placeholder or public value: set your own secret when NODE_ENV=production',
    ])
    expect(problems.join(' ')).not.toContain('short-key')
  })

  it('accepts the same values outside production (the sandbox, tests)', () => {
    expect(problemsOf({ PF_API_KEY: 'change-me', AWS_SECRET_ACCESS_KEY: 'change-me' })).toEqual([])
  })
})
