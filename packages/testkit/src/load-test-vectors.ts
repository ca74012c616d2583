import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { locateReferenceData } from './locate-reference-data'

export interface SignatureVector {
  key: string
  body: string
  header?: string
  value: string
  from?: string
}

export interface DerivedPasswordVector {
  userId: string
  clientSecret: string
  realm: string
  tenant: string
}

export interface TestVectors {
  callback: SignatureVector[]
  webhook: SignatureVector[]
  derivedPassword: DerivedPasswordVector[]
  externalHexHmacSha256: SignatureVector[]
}

/**
 * The spec's test vectors for signatures and derived passwords: the repository's copy,
 * `data/reference/spec/test-vectors.json`.
 *
 * @example
 * it.each(loadTestVectors().webhook)('verifies the vector signed with $key', ({ key, body, value }) => …)
 */
export function loadTestVectors(referenceDir: string = locateReferenceData()): TestVectors {
  return JSON.parse(readFileSync(join(referenceDir, 'spec', 'test-vectors.json'), 'utf8')) as TestVectors
}
