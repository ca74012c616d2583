import {
  parseSearchQuery,
  searchQueryParser,
  SearchQueryFault,
  type SearchQueryParser,
} from '../src/emulators/keycloak-search-query'

// The emulator reads a user search's `q` as Keycloak's SearchQueryUtils.getFields does: the cases of Keycloak's
// own SearchQueryUtilsTest, which both parsers pass, and those where they part (keycloak/keycloak#22814, #37281,
// #46595).
const fields = (query: string, parser: SearchQueryParser) =>
  Object.fromEntries(parseSearchQuery(query, parser))

describe.each(['pattern', 'scan'] as const)("Keycloak's user-search q, %s parser", (parser) => {
  it.each<[string, Record<string, string>]>([
    ['   key1:val1 nokey key2:"val 2" key3:val3   ', { key1: 'val1', key2: 'val 2', key3: 'val3' }],
    ['   key1:"val1"   ', { key1: 'val1' }],
    ['key1:val="123456"', { key1: 'val="123456"' }],
    ['key1:"val=\\"12 34 56\\""', { key1: 'val="12 34 56"' }],
    ['   "key 1":val1', { 'key 1': 'val1' }],
    ['"key \\"1\\"":"val \\"1\\""', { 'key "1"': 'val "1"' }],
    ['key"1":val1', { 'key"1"': 'val1' }],
    ['pfUserId:"a b: \\"c\\""', { pfUserId: 'a b: "c"' }],
  ])('reads %s as SearchQueryUtilsTest says', (query, expected) => {
    expect(fields(query, parser)).toEqual(expected)
  })
})

describe("where Keycloak's two q parsers part", () => {
  it('reads a backslash inside quotes as an escape up to 26.0.5, as itself from 26.0.6 (\\\\ dropped)', () => {
    expect(fields('pfUserId:"a\\b"', 'pattern')).toEqual({ pfUserId: 'ab' })
    expect(fields('pfUserId:"a\\b"', 'scan')).toEqual({ pfUserId: 'a\\b' })
    expect(fields('pfUserId:"a\\\\b"', 'pattern')).toEqual({ pfUserId: 'a\\b' })
    expect(fields('pfUserId:"a\\\\b"', 'scan')).toEqual({ pfUserId: 'ab' })
  })

  it('ignores one-character keys up to 26.0.5 (keycloak/keycloak#22814), reads them from 26.0.6', () => {
    expect(fields('k:val1', 'pattern')).toEqual({})
    expect(fields('k:val1', 'scan')).toEqual({ k: 'val1' })
  })

  it('throws from 26.0.6 on a query ending in a backslash (the server answers 500)', () => {
    expect(fields('pfUserId:a\\', 'pattern')).toEqual({ pfUserId: 'a\\' })
    expect(() => parseSearchQuery('pfUserId:a\\', 'scan')).toThrow(SearchQueryFault)
  })

  it.each([
    ['24.0.8', 'pattern'],
    ['24.0.9', 'scan'],
    ['25.0.6', 'pattern'],
    ['26.0.5', 'pattern'],
    ['26.0.6', 'scan'],
    ['26.1.0', 'scan'],
  ])('runs on %s the %s parser', (version, parser) => {
    expect(searchQueryParser(version)).toBe(parser)
  })
})
