import { readFileSync } from 'node:fs'
import { join } from 'node:path'

interface Vector {
  key: string
  body: string
  value: string
}

/**
 * The spec's test vectors, the repository's copy (`data/reference/spec/test-vectors.json`), read directly rather
 * than through @pf/testkit, which itself depends on this package: no workspace cycle.
 */
export const specVectors = JSON.parse(
  readFileSync(join(__dirname, '..', '..', '..', 'data', 'reference', 'spec', 'test-vectors.json'), 'utf8'),
) as { callback: Vector[]; webhook: Vector[] }
