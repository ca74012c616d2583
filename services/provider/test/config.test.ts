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
  it('drains long enough for a query in flight: its delivery (DELIVERY_TIMEOUT_MS) and its callback (OUTBOUND_TIMEOUT_MS)', () => {
    expect(loadProviderConfig({}).server.drainTimeoutMs).toBe(615_000)
    expect(
      loadProviderConfig({ DELIVERY_TIMEOUT_MS: '60000', OUTBOUND_TIMEOUT_MS: '20000' }).server
        .drainTimeoutMs,
    ).toBe(85_000)
    expect(
      problemsOf({ DELIVERY_TIMEOUT_MS: '10000', OUTBOUND_TIMEOUT_MS: '10000', SHUTDOWN_DRAIN_MS: '15000' }),
    ).toEqual([
      expect.stringMatching(
        /^SHUTDOWN_DRAIN_MS must be at least DELIVERY_TIMEOUT_MS \+ OUTBOUND_TIMEOUT_MS \(20000\)/,
      ),
    ])
  })

  it('puts watches on WATCHES_DATABASE_URL, else the companies database, else none (the watch API answers 501)', () => {
    expect(loadProviderConfig({}).watches).toBeUndefined()
    const companies = 'postgres://db.internal/companies'
    expect(loadProviderConfig({ COMPANIES_DATABASE_URL: companies }).watches).toMatchObject({
      url: companies,
      poolSize: 10,
      subjectsMaxBytes: 1024 ** 3,
      subjectsTimeoutMs: 30_000,
    })
    expect(
      loadProviderConfig({
        COMPANIES_DATABASE_URL: companies,
        WATCHES_DATABASE_URL: 'postgres://db.internal/w',
      }).watches?.url,
    ).toBe('postgres://db.internal/w')
    expect(problemsOf({ WATCHES_DATABASE_URL: 'mysql://x' })).toEqual([
      expect.stringMatching(/^WATCHES_DATABASE_URL must be a postgres:\/\//),
    ])
  })

  it('sizes the watches pool for the alert deliverer, the screener, the list re-screener and the routes', () => {
    const url = 'postgres://db.internal/w'
    const env = { WATCHES_DATABASE_URL: url, WATCH_ALERT_CONCURRENCY: '20' }
    expect(loadProviderConfig(env).watches?.poolSize).toBe(25)
    expect(problemsOf({ ...env, WATCHES_DATABASE_POOL: '24' })).toEqual([
      expect.stringMatching(/^WATCHES_DATABASE_POOL must be at least WATCH_ALERT_CONCURRENCY \+ 5 \(25\)/),
    ])
  })

  it('refuses a subjects upload time-out longer than the server lets any request run', () => {
    const url = 'postgres://db.internal/w'
    expect(
      loadProviderConfig({ WATCHES_DATABASE_URL: url, HTTP_REQUEST_TIMEOUT_MS: '600000' }).watches
        ?.subjectsTimeoutMs,
    ).toBe(600_000)
    expect(problemsOf({ WATCHES_DATABASE_URL: url, WATCH_SUBJECTS_TIMEOUT_MS: '60000' })).toEqual([
      expect.stringMatching(
        /^WATCH_SUBJECTS_TIMEOUT_MS must not be longer than HTTP_REQUEST_TIMEOUT_MS \(30000\)/,
      ),
    ])
  })

  it('reads the company store and delivery settings: in memory and no delivery cap unless set', () => {
    const defaults = loadProviderConfig({})
    expect(defaults.companiesDatabase).toBeUndefined()
    expect(defaults.delivery).toEqual({ timeoutMs: 600_000, maxRecords: undefined })
    expect(
      loadProviderConfig({
        COMPANIES_DATABASE_URL: 'postgres://pf@db:5432/pf',
        COMPANIES_DATABASE_READ_URL: 'postgresql://pf@replica:5432/pf',
        COMPANIES_DATABASE_POOL: '4',
        PROVIDER_MAX_DELIVERY_RECORDS: '50000',
      }),
    ).toMatchObject({
      companiesDatabase: {
        url: 'postgres://pf@db:5432/pf',
        readUrl: 'postgresql://pf@replica:5432/pf',
        poolSize: 4,
        timeoutMs: 5000,
      },
      delivery: { maxRecords: 50_000 },
    })
    expect(
      problemsOf({
        COMPANIES_DATABASE_URL: 'mysql://user:secret@db/pf',
        COMPANIES_DATABASE_POOL: '0',
        PROVIDER_MAX_DELIVERY_RECORDS: '-1',
      }),
    ).toEqual([
      'COMPANIES_DATABASE_URL must be a postgres:// or postgresql:// URL (got a value starting "mysql://use")',
      'COMPANIES_DATABASE_POOL must be an integer >= 1 and <= 1000 (got "0")',
      'PROVIDER_MAX_DELIVERY_RECORDS must be an integer >= 1 (got "-1")',
    ])
    expect(problemsOf({ COMPANIES_DATABASE_READ_URL: 'postgres://replica/pf' })).toEqual([
      'COMPANIES_DATABASE_READ_URL needs COMPANIES_DATABASE_URL (the primary)',
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

  it('refuses credentials in S3_ENDPOINT (the ready line shows the endpoint; keys go in AWS_*)', () => {
    expect(problemsOf({ S3_ENDPOINT: 'http://minio:9000' })).toEqual([])
    const problems = problemsOf({ S3_ENDPOINT: 'http://key:s3cret@minio:9000' })
    expect(problems).toEqual([
      'S3_ENDPOINT must not carry credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY',
    ])
  })

  it('reads the list limits: SANCTIONS_MIN_SHARE a share from 0 to 1 (default 0.5), SANCTIONS_MAX_NAME_LENGTH no shorter than a query (default 1000)', () => {
    expect(loadProviderConfig({}).sanctions).toMatchObject({ minShare: 0.5, maxNameLength: 1000 })
    expect(
      loadProviderConfig({ SANCTIONS_MIN_SHARE: '0.9', SANCTIONS_MAX_NAME_LENGTH: '300' }).sanctions,
    ).toMatchObject({ minShare: 0.9, maxNameLength: 300 })
    expect(loadProviderConfig({ SANCTIONS_MIN_SHARE: '0' }).sanctions.minShare).toBe(0)
    for (const share of ['1.5', '-0.1', '50%', 'half'])
      expect(problemsOf({ SANCTIONS_MIN_SHARE: share })).toEqual([
        `SANCTIONS_MIN_SHARE must be a share from 0 to 1 such as 0.5 (got "${share}")`,
      ])
    expect(problemsOf({ SANCTIONS_MAX_NAME_LENGTH: '100' })).toEqual([
      expect.stringMatching(/^SANCTIONS_MAX_NAME_LENGTH must be an integer .*256/),
    ])
  })

  it('accepts the same values outside production (the sandbox, tests)', () => {
    expect(problemsOf({ PF_API_KEY: 'change-me', AWS_SECRET_ACCESS_KEY: 'change-me' })).toEqual([])
  })
})
