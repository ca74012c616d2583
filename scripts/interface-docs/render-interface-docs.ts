import { formatWithPrettier } from '../format-with-prettier'
import { generatedParts, OPENAPI_DOCUMENTS } from './generated-parts'

/** The reference's pages: written by hand, with generated parts between marks. */
export const INTERFACE_DOCS = [
  'docs/README.md',
  'docs/provider.md',
  'docs/webhooks.md',
  'docs/auth-exchange.md',
]

/** `<!-- begin generated: NAME … -->` … `<!-- end generated: NAME -->`. */
const PART = /(<!-- begin generated: (\S+)[^>]*-->\n)[\s\S]*?(<!-- end generated: \2 -->)/g

/** A page with each generated part written anew; a mark naming no part is an error, not a silent leftover. */
export function fillGeneratedParts(page: string, parts: Record<string, string>, path = 'page'): string {
  return page.replace(PART, (_whole, begin: string, name: string, end: string) => {
    const part = parts[name]
    if (part === undefined) throw new Error(`${path}: no generated part is called ${name}`)
    return `${begin}\n${part}\n\n${end}`
  })
}

/**
 * Every file of docs/ the generator owns, path (from the repository root) to content, formatted as the repository
 * is: the pages (from their committed text, `read`) and each service's OpenAPI document as JSON.
 */
export function renderInterfaceDocs(read: (path: string) => string): Map<string, string> {
  const parts = generatedParts()
  const files = new Map<string, string>()
  for (const path of INTERFACE_DOCS) files.set(path, fillGeneratedParts(read(path), parts, path))
  for (const [service, document] of Object.entries(OPENAPI_DOCUMENTS))
    files.set(`docs/openapi/${service}.json`, `${JSON.stringify(document, null, 2)}\n`)
  for (const [path, text] of files) files.set(path, formatWithPrettier(path, text))
  return files
}
