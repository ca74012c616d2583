import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { generatedParts } from '../scripts/interface-docs/generated-parts'
import {
  fillGeneratedParts,
  INTERFACE_DOCS,
  renderInterfaceDocs,
} from '../scripts/interface-docs/render-interface-docs'

// The interface reference (docs/) is the repository's own: its generated parts are what the services' OpenAPI
// documents, @pf/schemas and the spec's test vectors say today (`pnpm interface-docs` writes them).
const root = join(__dirname, '..')
const read = (path: string) => readFileSync(join(root, path), 'utf8')

describe('docs/, the interface reference', () => {
  it('the committed pages and OpenAPI documents are what pnpm interface-docs writes', () => {
    const rendered = renderInterfaceDocs(read)
    expect([...rendered.keys()].sort()).toEqual([
      'docs/README.md',
      'docs/auth-exchange.md',
      'docs/openapi/auth-exchange.json',
      'docs/openapi/provider.json',
      'docs/openapi/webhook-receiver.json',
      'docs/provider.md',
      'docs/webhooks.md',
    ])
    for (const [path, text] of rendered) expect([path, read(path)]).toEqual([path, text])
  })

  it('every generated part has its place in a page, and a mark naming no part is refused', () => {
    const pages = INTERFACE_DOCS.map(read).join('\n')
    const unplaced = Object.keys(generatedParts()).filter(
      (name) => !pages.includes(`<!-- begin generated: ${name} `),
    )
    expect(unplaced).toEqual([])
    expect(() =>
      fillGeneratedParts('<!-- begin generated: nothing -->\n<!-- end generated: nothing -->', {}),
    ).toThrow('no generated part is called nothing')
  })

  it('names the spec as its source, and each interface its own page: requests, signatures, states, retries', () => {
    expect(read('docs/README.md')).toContain('Marketplace Provider Integration Interface')
    expect(read('docs/provider.md')).toMatch(/## Status callback[\s\S]*## States[\s\S]*## Retries/)
    expect(read('docs/webhooks.md')).toMatch(
      /\*\*Signature\.\*\*[\s\S]*## Delivery states and the platform's retries/,
    )
    expect(read('docs/auth-exchange.md')).toMatch(/## C1\. Realm-based flow[\s\S]*## C2\. Tenant-based flow/)
  })
})
