import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { locateSharedDir } from './locate-shared-dir'

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

/** `shared/spec/test-vectors.json`, the project's independent vectors for signatures and derived passwords. */
export function loadTestVectors(sharedDir: string = locateSharedDir()): TestVectors {
  return JSON.parse(readFileSync(join(sharedDir, 'spec', 'test-vectors.json'), 'utf8')) as TestVectors
}
