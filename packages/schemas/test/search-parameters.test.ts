import { validateCompaniesParameters, validateSanctionsParameters } from '@pf/schemas'

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
