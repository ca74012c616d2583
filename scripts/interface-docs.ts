// `pnpm interface-docs`: rewrites the generated parts of docs/ (the interface reference) and docs/openapi/*.json
// from the services' OpenAPI documents, @pf/schemas and the spec's test vectors; test/interface-docs.test.ts
// fails while the committed files differ from what this writes.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { renderInterfaceDocs } from './interface-docs/render-interface-docs'

const USAGE = `usage: pnpm interface-docs [--help]
  Rewrites the generated parts of docs/ and docs/openapi/*.json from the services' OpenAPI documents.`

const root = join(__dirname, '..')
const args = process.argv.slice(2).filter((arg) => arg !== '--') // pnpm 10 hands a `--` on
const help = args.includes('--help') || args.includes('-h')
if (help) console.log(USAGE)
else if (args.length > 0) {
  process.stderr.write(`interface-docs: unknown argument "${args[0]}"\n${USAGE}\n`)
  process.exitCode = 2
}
const pages =
  help || args.length > 0 ? [] : renderInterfaceDocs((page) => readFileSync(join(root, page), 'utf8'))
for (const [path, text] of pages) {
  mkdirSync(dirname(join(root, path)), { recursive: true })
  writeFileSync(join(root, path), text)
  console.log(`wrote ${path}`)
}
