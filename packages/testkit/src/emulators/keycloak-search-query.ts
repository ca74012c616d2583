/**
 * How a Keycloak server reads the `q` of `GET /admin/realms/{realm}/users` (UsersResource.getUsers passes it to
 * SearchQueryUtils.getFields, services/src/main/java/org/keycloak/utils/SearchQueryUtils.java): `key:value`
 * pairs separated by spaces, either side in double quotes. Two parsers shipped, and they differ on backslashes:
 * - `pattern` (24.0.0-24.0.8, 25, 26.0.0-26.0.5): a regular expression; inside quotes `\x` stands for `x`
 *   (so `\\` is one backslash and `\"` a quote); an unquoted value is taken as it is, to the next space.
 * - `scan` (26.0.6 on, and the 24 branch from 24.0.9: the fix of CVE-2024-10270, keycloak/keycloak#35214,
 *   commit 5d6c91f): a character loop. `\"` is a quote, `\\` is dropped whole (keycloak/keycloak#37281), any
 *   other backslash is kept; a backslash that ends the query throws (ArrayIndexOutOfBoundsException:
 *   keycloak/keycloak#46595), which the server answers with a 500.
 */
export type SearchQueryParser = 'pattern' | 'scan'

/** Thrown where Keycloak's parser throws (the server answers 500). */
export class SearchQueryFault extends Error {}

/** `[major, minor, patch]` of a server version such as `26.0.5` (missing parts are 0). */
export const versionParts = (version: string): [number, number, number] => {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map((part) => Number.parseInt(part, 10) || 0)
  return [major, minor, patch]
}

/** Whether `version` is `at` or later. */
export function versionAtLeast(version: string, at: [number, number, number]): boolean {
  const parts = versionParts(version)
  for (let i = 0; i < 3; i += 1) if (parts[i] !== at[i]) return parts[i]! > at[i]!
  return true
}

/** The parser a server of this version runs (see `SearchQueryParser`). */
export function searchQueryParser(serverVersion: string): SearchQueryParser {
  const [major] = versionParts(serverVersion)
  if (major === 24) return versionAtLeast(serverVersion, [24, 0, 9]) ? 'scan' : 'pattern'
  return versionAtLeast(serverVersion, [26, 0, 6]) ? 'scan' : 'pattern'
}

// The pre-26.0.6 SearchQueryUtils.queryPattern, Java's `\s` (ASCII) and `.` (no line terminators) spelt out:
// \s*(?:(?<name>[^"][^: ]+)|"(?<nameEsc>(?:\\.|[^\\"])+)"):(?:(?<value>[^"][^ ]*)|"(?<valueEsc>(?:\\.|[^\\"])+)")\s*
const SPACE = '[ \\t\\n\\x0B\\f\\r]*'
const DOT = '[^\\n\\r\\u0085\\u2028\\u2029]'
const ESCAPED = `"((?:\\\\${DOT}|[^\\\\"])+)"`
const QUERY_PATTERN = new RegExp(
  `${SPACE}(?:([^"][^: ]+)|${ESCAPED}):(?:([^"][^ ]*)|${ESCAPED})${SPACE}`,
  'gu',
)
const unescape = (escaped: string) => escaped.replace(new RegExp(`\\\\(${DOT})`, 'gu'), '$1')

function fieldsByPattern(query: string): Map<string, string> {
  const fields = new Map<string, string>()
  for (const [, name, nameEsc, value, valueEsc] of query.matchAll(QUERY_PATTERN))
    fields.set(name ?? unescape(nameEsc!), value ?? unescape(valueEsc!))
  return fields
}

/** Java's String.trim: every character up to U+0020 off both ends. */
function javaTrim(text: string): string {
  let start = 0
  let end = text.length
  while (start < end && text.charCodeAt(start) <= 0x20) start += 1
  while (end > start && text.charCodeAt(end - 1) <= 0x20) end -= 1
  return text.slice(start, end)
}

/** One side of a pair as the 26.0.6 loop reads it from `i`, to `stop` (or a space outside quotes). */
function scanPart(chars: string, start: number, stop: string | undefined): { text: string; end: number } {
  const at = (i: number) => {
    if (i >= chars.length) throw new SearchQueryFault(`Index ${i} out of bounds for length ${chars.length}`)
    return chars[i]
  }
  let i = start
  let inQuotes = false
  let internal = false
  let text = ''
  while (i < chars.length && chars[i] !== stop) {
    if (chars[i] === '\\') {
      if (at(i + 1) === '"') i += 1
      else if (at(i + 1) === '\\') {
        i += 2
        continue
      }
    } else if (chars[i] === '"') {
      if (!inQuotes && text.length > 0) internal = true
      else if (internal) internal = false
      else {
        inQuotes = !inQuotes
        i += 1
        continue
      }
    } else if (chars[i] === ' ' && !inQuotes) break
    text += chars[i]
    i += 1
  }
  return { text, end: i }
}

function fieldsByScan(query: string): Map<string, string> {
  const fields = new Map<string, string>()
  const chars = javaTrim(query)
  for (let i = 0; i < chars.length; i += 1) {
    const name = scanPart(chars, i, ':')
    i = name.end
    if (i === chars.length || chars[i] === ' ') continue
    const value = scanPart(chars, i + 1, undefined)
    i = value.end
    fields.set(name.text, value.text)
  }
  return fields
}

/**
 * The attribute names and values a `q` stands for, as the given parser reads it; throws `SearchQueryFault`
 * where Keycloak throws.
 *
 * @example
 * parseSearchQuery('pfUserId:"a b" orgId:o1', 'scan') // Map { 'pfUserId' => 'a b', 'orgId' => 'o1' }
 */
export function parseSearchQuery(query: string, parser: SearchQueryParser): Map<string, string> {
  return parser === 'pattern' ? fieldsByPattern(query) : fieldsByScan(query)
}
