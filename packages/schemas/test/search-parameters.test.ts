import {
  MAX_LIST_NAME_LENGTH,
  MAX_SCREENING_LISTS,
  validateCompaniesParameters,
  validateSanctionsParameters,
} from '@pf/schemas'

describe('validateSanctionsParameters (spec: parameters.name missing or empty → 400 {error, queryId})', () => {
  it('accepts a name with optional country, threshold and limit', () => {
    expect(validateSanctionsParameters({ name: 'Kim Jong', country: 'KP', threshold: 85, limit: 5 }).ok).toBe(
      true,
    )
  })

  it.each([
    [{}, 'name is required'],
    [{ name: null }, 'name is required'],
    [{ name: '' }, 'name must not be empty'],
    [{ name: '   ' }, 'name must not be blank'],
    [{ name: 7 }, 'name must be string'],
    [{ name: 'x', threshold: 101 }, 'threshold must be <= 100'],
    [{ name: 'x', limit: 0 }, 'limit must be >= 1'],
  ])('rejects %j with "%s"', (parameters, error) => {
    expect(validateSanctionsParameters(parameters)).toEqual({ ok: false, error })
  })

  it('accepts the optional screening choices lists, entityType and birthYear, each nullable', () => {
    const choices = { lists: ['un-sc-consolidated', 'us-csl/sdn'], entityType: 'person', birthYear: 1971 }
    expect(validateSanctionsParameters({ name: 'x', ...choices }).ok).toBe(true)
    expect(
      validateSanctionsParameters({ name: 'x', lists: null, entityType: null, birthYear: null }).ok,
    ).toBe(true)
  })

  it.each([
    ['an empty lists', { lists: [] }],
    [
      `more than ${MAX_SCREENING_LISTS} lists`,
      { lists: Array.from({ length: MAX_SCREENING_LISTS + 1 }, (_, i) => `l${i}`) },
    ],
    [
      `a list name over ${MAX_LIST_NAME_LENGTH} characters`,
      { lists: ['x'.repeat(MAX_LIST_NAME_LENGTH + 1)] },
    ],
    ['a list name that is not a string', { lists: [7] }],
    ['lists as a string', { lists: 'ofac-sdn' }],
    ['another entityType', { entityType: 'individual' }],
    ['a birthYear before 1800', { birthYear: 1799 }],
    ['a birthYear after 2100', { birthYear: 2101 }],
    ['a birthYear that is not a whole number', { birthYear: 1971.5 }],
    ['a birthYear as a string', { birthYear: '1971' }],
  ])('refuses %s', (_case, choices) => {
    expect(validateSanctionsParameters({ name: 'x', ...choices }).ok).toBe(false)
  })
})

describe('validateCompaniesParameters (spec: name, country, industry all optional)', () => {
  it('accepts no filters at all', () => {
    expect(validateCompaniesParameters({}).ok).toBe(true)
  })

  it('accepts each filter, null, and unknown extra parameters', () => {
    expect(validateCompaniesParameters({ name: 'acme', country: null, industry: 'Retail', page: 2 }).ok).toBe(
      true,
    )
  })

  it('rejects a non-string filter', () => {
    expect(validateCompaniesParameters({ country: ['GB'] })).toEqual({
      ok: false,
      error: 'country must be string or null',
    })
  })
})
