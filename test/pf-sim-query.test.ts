import { once } from 'node:events'
import { createServer, type AddressInfo } from 'node:net'
import { join } from 'node:path'
import { createCleanup, startServiceProcess, type ServiceProcess } from '@pf/testkit'
import { startS3Server, type S3ServerHandle } from '@pf/testkit/s3'
import { runPfSim, terminalEnv } from './run-pf-sim'

// `pf-sim query` as a user runs it (the built CLI, a child process) against the built provider: what it prints,
// and the README's exit codes: 0 done, 1 failed (non-2xx, failed callback), 2 usage.
const root = join(__dirname, '..')
const env = terminalEnv
const pfSim = runPfSim

const cleanup = createCleanup(afterAll)
let s3: S3ServerHandle
let provider: ServiceProcess
let strict: ServiceProcess
const providerEnv = () => ({
  ...env,
  PORT: '0',
  S3_ENDPOINT: s3.endpoint,
  AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
  AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
})
beforeAll(async () => {
  s3 = cleanup.add(await startS3Server({ buckets: ['pf-deliveries'] }), (s) => s.stop())
  provider = cleanup.add(
    await startServiceProcess({
      entry: join(root, 'services', 'provider', 'dist', 'main.js'),
      env: { ...providerEnv(), OUTBOUND_ALLOW_PRIVATE: 'true' },
      readyMessage: 'provider listening',
    }),
    (p) => p.stop(),
  )
  // A provider as a newcomer first runs it: private callbacks refused.
  strict = cleanup.add(
    await startServiceProcess({
      entry: join(root, 'services', 'provider', 'dist', 'main.js'),
      env: providerEnv(),
      readyMessage: 'provider listening',
    }),
    (p) => p.stop(),
  )
})
const url = (service: ServiceProcess) => service.readyLine.url as string

describe('pf-sim query', () => {
  it('prints the answer, the callback and a table of results that fits 100 columns, exit 0', async () => {
    const run = await pfSim('query', 'companies', '--provider', url(provider), '--param', 'name=acme')
    expect(run.code).toBe(0)
    expect(run.stderr).toBe('')
    const lines = run.stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^HTTP 200 {2}recordCount 69 {2}executionTimeMs \d+$/)
    expect(lines[1]).toBe('callback  delivered  (signature valid)')
    expect(lines[2]).toBe('20 of 69 shown')
    expect(lines[3]).toMatch(/^id +name +country/)
    expect(lines).toHaveLength(4 + 20)
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100)
  })

  it('summarises a screening explanation as the matched name, the score and the list; --json is the whole answer', async () => {
    const run = await pfSim(
      'query',
      'sanctions',
      '--provider',
      url(provider),
      '--param',
      'name=haddad dmitri',
    )
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/\nscore +name +matchedName +list +type/)
    expect(run.stdout).toMatch(/\n100 +HADDAD, Dmitri +HADDAD, Dmitri +sanctions +individual/)
    expect(run.stdout).not.toMatch(/pf-ofac-jw|explanation/)
    const json = await pfSim(
      'query',
      'sanctions',
      '--provider',
      url(provider),
      '--param',
      'name=haddad dmitri',
      '--json',
    )
    const outcome = JSON.parse(json.stdout) as {
      response: { status: number; body: { results: { explanation: unknown }[] } }
    }
    expect(outcome.response.status).toBe(200)
    expect(outcome.response.body.results[0]?.explanation).toMatchObject({ algorithm: expect.any(String) })
  })

  it('exits 1 when the provider answers non-2xx: 401 (wrong key) and 400 (bad parameters), with the body shown', async () => {
    const key = await pfSim('query', 'companies', '--provider', url(provider), '--api-key', 'wrong')
    expect(key.code).toBe(1)
    expect(key.stdout).toMatch(
      /^HTTP 401 {2}\{"error":"invalid or missing X-PF-Api-Key header"\}\ncallback {2}none\n$/,
    )
    expect(key.stderr).toBe(
      'pf-sim: query failed: the provider answered 401: invalid or missing X-PF-Api-Key header\n',
    )
    const bad = await pfSim('query', 'companies', '--provider', url(provider), '--param', 'limit=-1')
    expect(bad).toMatchObject({ code: 1, stdout: expect.stringMatching(/^HTTP 400 /) })
  })

  it('exits 1 when the callback says failed (a bucket that does not exist), and never prints the AWS SDK notice', async () => {
    const run = await pfSim(
      'query',
      'companies',
      '--provider',
      url(provider),
      '--param',
      'name=acme',
      '--delivery',
      'pf_s3_sync',
      '--bucket',
      'no-such-bucket',
      '--s3-endpoint',
      s3.endpoint,
    )
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(
      /^HTTP 500 [\s\S]*\ncallback {2}failed: delivery failed {2}\(signature valid\)\n$/,
    )
    expect(run.stderr).toBe('pf-sim: query failed: the provider answered 500: delivery failed\n')
    const delivered = await pfSim(
      'query',
      'companies',
      '--provider',
      url(provider),
      '--param',
      'name=acme',
      '--delivery',
      'pf_s3_sync',
      '--s3-endpoint',
      s3.endpoint,
    )
    expect(delivered).toMatchObject({
      code: 0,
      stderr: '',
      stdout: expect.stringMatching(/\n20 of 69 shown\n/),
    })
  })

  // Issue 36: without --s3-endpoint pf-sim cannot read the object; it says where it went and how to read it.
  it('pf_s3_sync without --s3-endpoint: says which s3:// object holds the results and how to read it, exit 0', async () => {
    const run = await pfSim(
      'query',
      'companies',
      '--provider',
      url(provider),
      '--param',
      'name=acme',
      '--delivery',
      'pf_s3_sync',
    )
    expect(run).toMatchObject({ code: 0, stderr: '' })
    const [, reference = '', bucket = '', key = ''] =
      /\nresults {2}in (s3:\/\/([^/]+)\/(\S+)), not read: give --s3-endpoint URL \(the provider's S3_ENDPOINT; keys from\n {2}AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY\) to show them here, or: aws s3 cp (\S+) -\n$/.exec(
        run.stdout,
      ) ?? []
    expect(run.stdout).toContain(`aws s3 cp ${reference} -`)
    // The address is where the results are: the object (read path-style; s3rver serves it unsigned) holds them.
    const object = await fetch(`${s3.endpoint}/${bucket}/${key}`)
    expect(object.status).toBe(200)
    expect(await object.json()).toHaveLength(69)
  })

  it('names the address and the cause when no provider answers, exit 1', async () => {
    // A port nothing listens on: bound, then released.
    const probe = createServer().listen(0, '127.0.0.1')
    await once(probe, 'listening')
    const { port } = probe.address() as AddressInfo
    await new Promise((resolve) => probe.close(resolve))
    const run = await pfSim('query', 'companies', '--provider', `http://127.0.0.1:${port}`)
    expect(run).toMatchObject({ code: 1, stdout: '' })
    expect(run.stderr).toBe(
      `pf-sim: no answer from the provider at http://127.0.0.1:${port}: ECONNREFUSED 127.0.0.1:${port}\n`,
    )
  })

  it('against a provider run on its own: refused 400, and the provider log names OUTBOUND_ALLOW_PRIVATE', async () => {
    const run = await pfSim('query', 'sanctions', '--provider', url(strict), '--param', 'name=x')
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(
      /answered 400: invalid query envelope: callbackUrl points at a non-public address/,
    )
    expect(strict.logs).toContainEqual(
      expect.objectContaining({ level: 40, msg: expect.stringMatching(/OUTBOUND_ALLOW_PRIVATE=true/) }),
    )
  })
})
