import countries from 'i18n-iso-countries'
import english from 'i18n-iso-countries/langs/en.json'
import { foldText } from '../matching/fold-text'

countries.registerLocale(english)

// Spellings found in real data (company registers, OFAC's address list) that the ISO names do not cover.
const ALIASES: Record<string, string> = {
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'northern ireland': 'GB',
  uk: 'GB',
  'great britain': 'GB',
  'united kingdom of great britain and northern ireland': 'GB',
  usa: 'US',
  'u s a': 'US',
  'u s': 'US',
  america: 'US',
  'korea north': 'KP',
  'north korea': 'KP',
  'korea south': 'KR',
  'south korea': 'KR',
  burma: 'MM',
  'congo democratic republic of the': 'CD',
  'congo republic of the': 'CG',
  'cote d ivoire': 'CI',
  'bahamas the': 'BS',
  'gambia the': 'GM',
  laos: 'LA',
  macau: 'MO',
  'netherlands antilles': 'AN',
  kosovo: 'XK',
  'west bank': 'PS',
  'region gaza': 'PS',
  'region crimea': 'UA',
  'vatican city': 'VA',
}

// Bounded: every distinct string a caller sends would otherwise stay here forever.
const CACHE_LIMIT = 4096
const cache = new Map<string, string | null>()

/**
 * ISO 3166-1 alpha-2 code for a country name or code in any of the usual spellings ("United Kingdom", "GB",
 * "GBR", "England", "Korea, North", "Côte d'Ivoire"); `null` when it is not a country.
 */
export function normalizeCountry(input: string | null | undefined): string | null {
  if (!input) return null
  const cached = cache.get(input)
  if (cached !== undefined) return cached
  const trimmed = input.trim()
  const key = foldText(trimmed)
    .replace(/[^a-z]+/g, ' ')
    .trim()
  let code: string | null = null
  if (/^[A-Za-z]{2}$/.test(trimmed) && countries.isValid(trimmed.toUpperCase())) code = trimmed.toUpperCase()
  else if (/^[A-Za-z]{3}$/.test(trimmed)) code = countries.alpha3ToAlpha2(trimmed.toUpperCase()) ?? null
  code ??=
    ALIASES[key] ?? countries.getAlpha2Code(trimmed, 'en') ?? countries.getAlpha2Code(key, 'en') ?? null
  if (code === null && key.endsWith(' the')) code = countries.getAlpha2Code(key.slice(0, -4), 'en') ?? null
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string)
  cache.set(input, code)
  return code
}

/** The English name of an alpha-2 code. */
export function countryName(code: string | null): string | null {
  return code ? (countries.getName(code, 'en') ?? null) : null
}
