// `pnpm interface-docs`: rewrites the generated parts of docs/ (the interface reference) and docs/openapi/*.json
// from the services' OpenAPI documents, @pf/schemas and the spec's test vectors; test/interface-docs.test.ts
// fails while the committed files differ from what this writes.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { renderInterfaceDocs } from './interface-docs/render-interface-docs'

const root = join(__dirname, '..')
for (const [path, text] of renderInterfaceDocs((page) => readFileSync(join(root, page), 'utf8'))) {
  mkdirSync(dirname(join(root, path)), { recursive: true })
  writeFileSync(join(root, path), text)
  console.log(`wrote ${path}`)
}
