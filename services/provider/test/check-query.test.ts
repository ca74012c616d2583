import { checkQuery as checkWith, type QueryCheck, type QueryRules as KitRules } from '@pf/provider-kit'
import type { SanctionsParameters } from '@pf/schemas'
import { COMPANIES } from '../src/endpoints/companies-endpoint'
import { sanctionsProblem, SANCTIONS, type ListNames } from '../src/endpoints/sanctions-endpoint'

// The kit checks a query against an endpoint's definition; the provider's two, with the list names in use.
type QueryRules = KitRules & { listNames?: ListNames }
const checkQuery = (
  endpoint: 'companies' | 'sanctions',
  body: unknown,
  { listNames, ...rules }: QueryRules,
) =>
  endpoint === 'companies'
    ? checkWith(COMPANIES, body, rules)
    : checkWith(
        { ...SANCTIONS, check: (parameters: SanctionsParameters) => sanctionsProblem(parameters, listNames) },
        body,
        rules,
      )

// The rules a query meets before any work, without a socket: the HTTP suites (provider-api, hostile-envelopes,
// routes-in-process) check the same refusals as answers.
const rules: QueryRules = { allowPrivate: false, s3: { defaultBucket: 'pf-deliveries' } }
const envelope = (extra: Record<string, unknown> = {}) => ({
  queryId: 'q-1',
  callbackUrl: 'https://platform.example/cb',
  parameters: { name: 'deutsche bahn' },
  ...extra,
})
const refusal = (check: QueryCheck) => (check.ok ? undefined : check.refusal)

describe('checkQuery(endpoint, body, rules): the envelope (spec, query-processing table, first row)', () => {
  it.each([
    ['no queryId', { callbackUrl: 'https://platform.example/cb' }],
    ['no callbackUrl', { queryId: 'q-1' }],
    ['a null queryId', { queryId: null, callbackUrl: 'https://platform.example/cb' }],
    ['a body that is not an object', 'q-1'],
  ])('refuses %s as an envelope error (400 {error}, no callback)', (_what, body) => {
    expect(refusal(checkQuery('companies', body, rules))).toMatchObject({
      code: 'ERR_INVALID_ENVELOPE',
      message: expect.stringMatching(/^invalid query envelope: /),
      extra: {},
    })
  })

  it.each([
    ['a .. segment', '../escape'],
    ['a leading slash', '/root'],
    ['a control character', 'q\u0000x'],
    ['more than an object key holds', 'q'.repeat(1020)],
  ])('refuses a queryId with %s', (_what, queryId) => {
    expect(refusal(checkQuery('companies', envelope({ queryId }), rules))).toMatchObject({
      code: 'ERR_INVALID_ENVELOPE',
    })
  })

  it.each(['q-ü-1003', 'batch 7/q:1..2'])('accepts queryId %j (the spec allows any string)', (queryId) => {
    expect(checkQuery('companies', envelope({ queryId }), rules).ok).toBe(true)
  })

  it('refuses a callbackUrl at a non-public address, and says why', () => {
    const check = checkQuery('companies', envelope({ callbackUrl: 'http://169.254.169.254/latest' }), rules)
    expect(refusal(check)?.message).toBe('invalid query envelope: callbackUrl points at a non-public address')
  })

  it.each([
    'https://[::127.0.0.1]/cb', // IPv4-compatible IPv6, written [::7f00:1] by URL parsers
    'https://[64:ff9b::7f00:1]/cb', // NAT64
    'https://[2002:7f00:1::]/cb', // 6to4
    'https://example.com:8443/cb', // a port outside OUTBOUND_ALLOWED_PORTS
    'ftp://example.com/cb',
  ])('refuses callbackUrl %s when only port 443 is allowed', (callbackUrl) => {
    const check = checkQuery('companies', envelope({ callbackUrl }), { ...rules, allowedPorts: [443] })
    expect(refusal(check)).toMatchObject({ code: 'ERR_INVALID_ENVELOPE' })
  })

  it('lets a private callbackUrl through with OUTBOUND_ALLOW_PRIVATE', () => {
    const body = envelope({ callbackUrl: 'http://127.0.0.1:9/cb' })
    expect(refusal(checkQuery('companies', body, rules))).toMatchObject({ code: 'ERR_INVALID_ENVELOPE' })
    expect(checkQuery('companies', body, { ...rules, allowPrivate: true }).ok).toBe(true)
  })
})

describe('checkQuery: the parameters (spec, second row: 400 {error, queryId}, no callback)', () => {
  it.each([
    ['sanctions', 'name missing', {}],
    ['sanctions', 'name empty', { name: '' }],
    ['sanctions', 'name blank', { name: '   ' }],
    ['sanctions', 'name over 256 characters', { name: 'abc '.repeat(100) }],
    ['sanctions', 'country over 100 characters', { name: 'x', country: 'c'.repeat(101) }],
    ['sanctions', 'limit over 1000', { name: 'x', limit: 1001 }],
    ['companies', 'name over 256 characters', { name: 'n'.repeat(257) }],
    ['companies', 'limit 0', { limit: 0 }],
    [
      'sanctions',
      'name of 33 words',
      { name: 'a b c d e f g h i j k l m n o p q r s t u v w x y z a b c d e f g' },
    ],
  ] as const)('refuses %s parameters with %s', (endpoint, _what, parameters) => {
    expect(refusal(checkQuery(endpoint, envelope({ parameters }), rules))).toMatchObject({
      code: 'ERR_INVALID_PARAMETERS',
      message: expect.stringMatching(/^invalid parameters: /),
      extra: { queryId: 'q-1' },
    })
  })

  it('accepts 32 words, and gives the parameters typed for the endpoint', () => {
    const name = 'a b c d e f g h i j k l m n o p q r s t u v w x y z a b c d e f'
    const check = checkQuery('sanctions', envelope({ parameters: { name, threshold: 80 } }), rules)
    expect(check).toEqual({
      ok: true,
      query: {
        endpoint: 'sanctions',
        envelope: expect.objectContaining({ queryId: 'q-1' }),
        parameters: { name, threshold: 80 },
      },
    })
  })

  it('takes absent parameters as none (companies: the first records)', () => {
    const check = checkQuery(
      'companies',
      { queryId: 'q-1', callbackUrl: 'https://platform.example/cb' },
      rules,
    )
    expect(check.ok && check.query.parameters).toEqual({})
  })
})

describe('checkQuery: where object delivery writes (pf_s3_sync)', () => {
  it.each(['../../x/', '/abs/', 'a/./b/', 'tab\t/'])('refuses s3KeyPrefix %j', (s3KeyPrefix) => {
    const check = checkQuery(
      'companies',
      envelope({ delivery: { mechanism: 'pf_s3_sync', s3KeyPrefix } }),
      rules,
    )
    expect(refusal(check)).toMatchObject({
      code: 'ERR_INVALID_PARAMETERS',
      message: expect.stringMatching(/^invalid delivery: delivery\.s3KeyPrefix/),
      extra: { queryId: 'q-1' },
    })
  })

  it('refuses a key over 1024 bytes made of prefix and queryId', () => {
    const body = envelope({
      queryId: 'q'.repeat(1000),
      delivery: { mechanism: 'pf_s3_sync', s3KeyPrefix: 'p'.repeat(30) },
    })
    expect(refusal(checkQuery('companies', body, rules))?.message).toMatch(/make a key over 1024 bytes/)
  })

  it('refuses a bucket outside S3_ALLOWED_BUCKETS, and accepts the default one inside it', () => {
    const strict = { ...rules, s3: { defaultBucket: 'pf-deliveries', allowedBuckets: ['pf-deliveries'] } }
    const theirs = envelope({ delivery: { mechanism: 'pf_s3_sync', s3Bucket: 'their-bucket' } })
    expect(refusal(checkQuery('companies', theirs, strict))?.message).toMatch(/"their-bucket" is not allowed/)
    expect(checkQuery('companies', envelope({ delivery: { mechanism: 'pf_s3_sync' } }), strict).ok).toBe(true)
  })

  it.each([5, true, { s3: 1 }, 'S3'])(
    'checks no object key for mechanism %j (inline, spec: any other value)',
    (mechanism) => {
      const body = envelope({ delivery: { mechanism, s3KeyPrefix: '../x/' } })
      expect(checkQuery('companies', body, rules).ok).toBe(true)
    },
  )
})

describe('checkQuery: the screening choices (issue 25: lists, entityType, birthYear)', () => {
  const withLists: QueryRules = { ...rules, listNames: new Set(['ofac-sdn', 'us-csl', 'us-csl/sdn']) }
  const screening = (parameters: Record<string, unknown>) =>
    checkQuery('sanctions', envelope({ parameters: { name: 'x', ...parameters } }), withLists)

  it('accepts lists and sub-lists in use, an entityType and a birthYear', () => {
    expect(screening({ lists: ['ofac-sdn', 'us-csl/sdn'], entityType: 'vessel', birthYear: 1971 }).ok).toBe(
      true,
    )
  })

  it('refuses a list name not in use, naming each once, as a parameters error with the queryId', () => {
    expect(refusal(screening({ lists: ['ofac-sdn', 'eu-fsf', 'eu-fsf', 'us-csl/xyz'] }))).toMatchObject({
      code: 'ERR_INVALID_PARAMETERS',
      message:
        'invalid parameters: lists names no list in use: "eu-fsf", "us-csl/xyz" (GET /api/lists shows them)',
      extra: { queryId: 'q-1' },
    })
  })

  it.each([
    [{ lists: [] }, 'lists must NOT have fewer than 1 items'],
    [{ entityType: 'ship' }, 'entityType'],
    [{ birthYear: 2101 }, 'birthYear must be <= 2100'],
  ])("refuses %j by the schema's bounds", (parameters, error) => {
    expect(refusal(screening(parameters))).toMatchObject({
      code: 'ERR_INVALID_PARAMETERS',
      message: expect.stringContaining(error),
    })
  })
})
