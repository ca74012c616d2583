import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { loadTestVectors, locateReferenceData } from '@pf/testkit'

describe('locateReferenceData', () => {
  it("finds the repository's data/reference/, from any folder inside the repository", () => {
    const reference = locateReferenceData(__dirname)
    expect(reference).toBe(join(__dirname, '..', '..', '..', 'data', 'reference'))
    expect(existsSync(join(reference, 'spec', 'test-vectors.json'))).toBe(true)
  })

  it('says where it looked when there is no workspace above', () => {
    expect(() => locateReferenceData('/')).toThrow(/no pnpm-workspace.yaml above/)
  })
})

describe('loadTestVectors', () => {
  it("reads the spec's vectors from the repository's copy", () => {
    const vectors = loadTestVectors(locateReferenceData(__dirname))
    expect(vectors.callback.length).toBeGreaterThan(0)
    expect(vectors.webhook.length).toBeGreaterThan(0)
    expect(vectors.derivedPassword.length).toBeGreaterThan(0)
  })
})
