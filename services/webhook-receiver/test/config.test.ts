import type { ConfigError } from '@pf/service-kit'
import { loadDeadLettersConfig, loadReceiverConfig, loadWorkerConfig } from '../src/config'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import selfsigned from 'selfsigned'
import { keySlot } from '../src/queue/shards/key-slot'

const problemsOf = (env: Record<string, string>) => {
  try {
    loadReceiverConfig(env)
    return []
  } catch (error) {
    return (error as ConfigError).problems
  }
}
const SECRET_32 = 'whsec_'.padEnd(32, 'x')

describe('receiver configuration in production (NODE_ENV=production)', () => {
  it('warns about a webhook secret under 32 bytes (the platform generates it), refuses a placeholder, in any rotation slot', () => {
    const short = {
      NODE_ENV: 'production',
      ALLOW_PLAIN_HTTP: 'true',
      PF_WEBHOOK_SECRET: `${SECRET_32},whsec_short`,
    }
    expect(problemsOf(short)).toEqual([])
    expect(loadReceiverConfig(short).warnings).toEqual([
      'PF_WEBHOOK_SECRET is 11 bytes, under 32: accepted, as the platform generates it',
    ])
    expect(loadReceiverConfig({ ...short, PF_WEBHOOK_SECRET: SECRET_32 }).warnings).toEqual([])
    expect(
      problemsOf({
        NODE_ENV: 'production',
        ALLOW_PLAIN_HTTP: 'true',
        PF_WEBHOOK_SECRET: `${SECRET_32},change-me`,
      }),
    ).toEqual([
      'PF_WEBHOOK_SECRET holds a placeholder or public value: set your own secret when NODE_ENV=production',
    ])
  })

  it('still refuses a dashboard token that is a placeholder', () => {
    expect(
      problemsOf({
        NODE_ENV: 'production',
        ALLOW_PLAIN_HTTP: 'true',
        PF_WEBHOOK_SECRET: SECRET_32,
        QUEUE_DASHBOARD_TOKEN: 'change-me',
      }),
    ).toEqual([
      'QUEUE_DASHBOARD_TOKEN must be at least 16 characters',
      'QUEUE_DASHBOARD_TOKEN holds a placeholder or public value: set your own secret when NODE_ENV=production',
    ])
  })

  it('refuses plain HTTP unless ALLOW_PLAIN_HTTP=true (TLS ends at an ingress) or it serves TLS itself', async () => {
    expect(problemsOf({ NODE_ENV: 'production', PF_WEBHOOK_SECRET: SECRET_32 })).toEqual([
      expect.stringMatching(/^NODE_ENV=production serves webhooks over HTTPS only .* ALLOW_PLAIN_HTTP=true/),
    ])
    expect(
      problemsOf({ NODE_ENV: 'production', PF_WEBHOOK_SECRET: SECRET_32, ALLOW_PLAIN_HTTP: 'true' }),
    ).toEqual([])
    const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }])
    const dir = mkdtempSync(join(tmpdir(), 'pf-tls-'))
    const [certFile, keyFile] = [join(dir, 'cert.pem'), join(dir, 'key.pem')]
    writeFileSync(certFile, pems.cert)
    writeFileSync(keyFile, pems.private)
    expect(
      problemsOf({
        NODE_ENV: 'production',
        PF_WEBHOOK_SECRET: SECRET_32,
        TLS_CERT_FILE: certFile,
        TLS_KEY_FILE: keyFile,
      }),
    ).toEqual([])
  })

  it('accepts a short secret and plain HTTP outside production (the sandbox, tests)', () => {
    expect(problemsOf({ PF_WEBHOOK_SECRET: 'x' })).toEqual([])
  })
})

describe('server limits', () => {
  it('the receiver and the worker read the shared settings; the worker waits longer for jobs in progress', () => {
    expect(
      loadReceiverConfig({ PF_WEBHOOK_SECRET: 'x', HTTP_REQUEST_TIMEOUT_MS: '15000' }).server,
    ).toMatchObject({
      requestTimeoutMs: 15_000,
      drainTimeoutMs: 10_000,
    })
    expect(loadWorkerConfig({}).server.drainTimeoutMs).toBe(30_000)
  })
})

describe('where Redis is: one URL, Sentinel or Cluster (service contract, second wave)', () => {
  it('reads REDIS_SENTINELS + REDIS_SENTINEL_NAME, waiting for one replica by default', () => {
    expect(
      loadReceiverConfig({
        PF_WEBHOOK_SECRET: 'x',
        REDIS_SENTINELS: '10.0.0.1:26379, sentinel-2:26379,[::1]:26380',
        REDIS_SENTINEL_NAME: 'pf',
        REDIS_PASSWORD: 'p',
      }).redis,
    ).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: '10.0.0.1', port: 26379 },
        { host: 'sentinel-2', port: 26379 },
        { host: '::1', port: 26380 },
      ],
      name: 'pf',
      username: undefined,
      password: 'p',
      waitReplicas: 1,
    })
  })

  it('reads REDIS_CLUSTER_NODES for the receiver, the worker and the dead-letter command alike', () => {
    const env = { PF_WEBHOOK_SECRET: 'x', REDIS_CLUSTER_NODES: 'r1:7000,r2:7001', REDIS_WAIT_REPLICAS: '2' }
    const expected = {
      kind: 'cluster',
      nodes: [
        { host: 'r1', port: 7000 },
        { host: 'r2', port: 7001 },
      ],
      waitReplicas: 2,
    }
    expect(loadReceiverConfig(env).redis).toMatchObject(expected)
    expect(loadWorkerConfig(env).redis).toMatchObject(expected)
    expect(loadDeadLettersConfig(env).redis).toMatchObject(expected)
  })

  it('keeps REDIS_URL as it was, waiting for no replica', () => {
    expect(loadReceiverConfig({ PF_WEBHOOK_SECRET: 'x' }).redis).toEqual({
      kind: 'url',
      url: 'redis://127.0.0.1:6379',
      waitReplicas: 0,
    })
  })

  it.each([
    [
      { REDIS_URL: 'redis://a:6379', REDIS_CLUSTER_NODES: 'b:7000' },
      /^set one of REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES/,
    ],
    [{ REDIS_SENTINELS: 'a:26379' }, /^REDIS_SENTINEL_NAME is required with REDIS_SENTINELS/],
    [{ REDIS_SENTINEL_NAME: 'pf' }, /^REDIS_SENTINEL_NAME needs REDIS_SENTINELS/],
    [
      { REDIS_CLUSTER_NODES: 'a:7000,b' },
      /^REDIS_CLUSTER_NODES must be a comma list of host:port \(got "b"\)/,
    ],
    [
      { REDIS_CLUSTER_NODES: 'a:7000', WEBHOOK_QUEUE_PREFIX: 'pf' },
      /^WEBHOOK_QUEUE_PREFIX must hold a hash tag/,
    ],
  ])('refuses %j in one line', (env, problem) => {
    expect(problemsOf({ PF_WEBHOOK_SECRET: 'x', ...env })).toEqual([expect.stringMatching(problem)])
  })
})

describe('replay protection and the quarantine (service contract, third wave)', () => {
  it('defaults WEBHOOK_MAX_AGE_SECONDS to the dedup window less one hour, keeps 10 000 quarantined events of 100 MiB in all (issue 35), a read-only dashboard', () => {
    expect(loadReceiverConfig({ PF_WEBHOOK_SECRET: 'x' })).toMatchObject({
      dedupTtlSeconds: 604_800,
      maxAgeSeconds: 601_200,
      keepQuarantined: 10_000,
      quarantineMaxBytes: 104_857_600,
      dashboardReadOnly: true,
    })
    expect(
      loadReceiverConfig({ PF_WEBHOOK_SECRET: 'x', WEBHOOK_DEDUP_TTL_SECONDS: '29850' }).maxAgeSeconds,
    ).toBe(26_250)
    expect(
      loadReceiverConfig({ PF_WEBHOOK_SECRET: 'x', QUEUE_DASHBOARD_READ_ONLY: 'false' }).dashboardReadOnly,
    ).toBe(false)
  })

  it.each([
    [
      { WEBHOOK_MAX_AGE_SECONDS: '26249' },
      "WEBHOOK_MAX_AGE_SECONDS must be at least 26250, the platform's retry horizon (7 h 12 min 30 s) plus 5 min (got 26249)",
    ],
    [
      { WEBHOOK_MAX_AGE_SECONDS: '604800' },
      'WEBHOOK_MAX_AGE_SECONDS must be shorter than WEBHOOK_DEDUP_TTL_SECONDS, so that a delivery replayed after its webhookId is forgotten is stale (got 604800 and 604800)',
    ],
    // The TTL's minimum rose with the maximum age: the platform's retry horizon + 5 min + the default hour.
    [
      { WEBHOOK_DEDUP_TTL_SECONDS: '29849' },
      'WEBHOOK_DEDUP_TTL_SECONDS must be an integer >= 29850 (got "29849")',
    ],
    [{ WEBHOOK_KEEP_QUARANTINED: '0' }, 'WEBHOOK_KEEP_QUARANTINED must be an integer >= 1 (got "0")'],
    [
      { WEBHOOK_QUARANTINE_MAX_BYTES: '1048575' },
      'WEBHOOK_QUARANTINE_MAX_BYTES must be at least WEBHOOK_MAX_BODY_BYTES, so that the largest event fits (got 1048575 and 1048576)',
    ],
  ])('refuses %j in one line', (env, problem) => {
    expect(problemsOf({ PF_WEBHOOK_SECRET: 'x', ...env })).toEqual([problem])
  })

  it('gives the dead-letter command the job settings a replayed quarantined event gets', () => {
    expect(loadDeadLettersConfig({ WEBHOOK_JOB_ATTEMPTS: '4' })).toMatchObject({
      jobAttempts: 4,
      keepFailed: 10_000,
    })
  })
})

describe('worker recovery settings', () => {
  it('defaults to a job back in wait within 25 s of a worker dying (lock 15 s + stalled check 10 s, renewed every 5 s)', () => {
    expect(loadWorkerConfig({})).toMatchObject({
      lockDurationMs: 15_000,
      lockRenewMs: 5000,
      stalledIntervalMs: 10_000,
      // `once` remembers a done effect a day beyond the 7-day dedup window.
      onceTtlMs: 8 * 24 * 3600 * 1000,
    })
  })

  it('refuses a renewal slower than half the lock duration', () => {
    expect(() =>
      loadWorkerConfig({ WORKER_LOCK_DURATION_MS: '10000', WORKER_LOCK_RENEW_MS: '6000' }),
    ).toThrow(/WORKER_LOCK_RENEW_MS must be at most half of WORKER_LOCK_DURATION_MS/)
  })
})

describe('IDP_SESSION_END: the worker signs users out at the identity provider (issue 27)', () => {
  const workerProblems = (env: Record<string, string>) => {
    try {
      loadWorkerConfig(env)
      return []
    } catch (error) {
      return (error as { problems: string[] }).problems
    }
  }

  it('is off by default, and then reads no identity-provider setting', () => {
    expect(loadWorkerConfig({ IDP_STYLE: 'bogus' }).sessionEnd).toBeUndefined()
  })

  it("on, reads the exchange's identity-provider settings through the one reader, and names what is missing", () => {
    expect(workerProblems({ IDP_SESSION_END: 'on' })).toContain('IDP_STYLE must be one of realm, tenant')
    expect(workerProblems({ IDP_SESSION_END: 'yes' })).toEqual([
      'IDP_SESSION_END must be one of on, off (got "yes")',
    ])
    const config = loadWorkerConfig({
      IDP_SESSION_END: 'on',
      IDP_STYLE: 'tenant',
      TENANT_DOMAIN: 'acme.eu.auth0.com',
      TENANT_CLIENT_ID: 'c',
      TENANT_CLIENT_SECRET: 's',
    })
    expect(config.sessionEnd).toMatchObject({
      idp: {
        style: 'tenant',
        tenant: { domain: 'acme.eu.auth0.com', connection: 'Username-Password-Authentication' },
      },
      timeoutMs: 10_000,
    })
  })
})

describe('QUEUE_SHARDS and QUEUE_RESHARD_FROM (issue 38), read alike by the three processes', () => {
  const secret = { PF_WEBHOOK_SECRET: SECRET_32 }
  it('default to 1 shard and no resharding: the unsharded queue', () => {
    expect(loadReceiverConfig(secret)).toMatchObject({ shards: 1, reshardFrom: undefined })
    expect(loadWorkerConfig({})).toMatchObject({ shards: 1, reshardFrom: undefined })
    expect(loadDeadLettersConfig({ QUEUE_SHARDS: '3', QUEUE_RESHARD_FROM: '1' })).toMatchObject({
      shards: 3,
      reshardFrom: 1,
    })
  })

  it('refuse more than one shard without a hash tag in WEBHOOK_QUEUE_PREFIX, and more than 64', () => {
    expect(problemsOf({ ...secret, QUEUE_SHARDS: '3', WEBHOOK_QUEUE_PREFIX: 'pf' })).toEqual([
      'WEBHOOK_QUEUE_PREFIX must hold a hash tag such as {pf} with QUEUE_SHARDS or QUEUE_RESHARD_FROM above 1 (got "pf")',
    ])
    expect(problemsOf({ ...secret, QUEUE_RESHARD_FROM: '2', WEBHOOK_QUEUE_PREFIX: 'pf' })).toHaveLength(1)
    expect(problemsOf({ ...secret, QUEUE_SHARDS: '1', WEBHOOK_QUEUE_PREFIX: 'pf' })).toEqual([])
    expect(problemsOf({ ...secret, QUEUE_SHARDS: '65' })).toEqual([
      expect.stringMatching(/^QUEUE_SHARDS must be an integer >= 1 and <= 64/),
    ])
    expect(problemsOf({ ...secret, QUEUE_SHARDS: '0' })).toHaveLength(1)
  })

  // Redis Cluster hashes a key's FIRST `{…}` when it is not empty, else the whole key: in `x{}{pf}` the `{}`
  // comes first, so each key of the queue (and each session's ordering keys) would get a slot of its own.
  it('refuse a prefix whose first {…} is empty, with a Cluster or several shards, though a {pf} follows', () => {
    const prefix = 'x{}{pf}'
    expect(keySlot(`${prefix}:webhooks:wait`)).not.toBe(keySlot(`${prefix}:webhooks:ordering:s-1:p`))
    expect(problemsOf({ ...secret, REDIS_CLUSTER_NODES: 'a:7000', WEBHOOK_QUEUE_PREFIX: prefix })).toEqual([
      expect.stringMatching(
        /^WEBHOOK_QUEUE_PREFIX must hold a hash tag such as \{pf\} with REDIS_CLUSTER_NODES/,
      ),
    ])
    expect(problemsOf({ ...secret, QUEUE_SHARDS: '2', WEBHOOK_QUEUE_PREFIX: prefix })).toEqual([
      expect.stringMatching(/^WEBHOOK_QUEUE_PREFIX must hold a hash tag such as \{pf\} with QUEUE_SHARDS/),
    ])
    // A tag anywhere in the prefix, as long as it is the first {…}, keeps every key in its slot.
    expect(
      problemsOf({ ...secret, REDIS_CLUSTER_NODES: 'a:7000', WEBHOOK_QUEUE_PREFIX: 'app:{pf}' }),
    ).toEqual([])
    expect(problemsOf({ ...secret, QUEUE_SHARDS: '2', WEBHOOK_QUEUE_PREFIX: 'app:{pf}' })).toEqual([])
  })
})
