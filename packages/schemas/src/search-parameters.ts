import { Type, type Static } from '@sinclair/typebox'
import { Maybe, NON_BLANK_PATTERN } from './lib/nullable'

/**
 * Longest `name` a search takes (characters): the longest entries of the OFAC lists are under 200, and the work
 * of a fuzzy match grows with the name, so a bound keeps one query from stalling the process.
 */
export const MAX_SEARCH_NAME_LENGTH = 256
/** Most words a search `name` may have (split on white space); checked by the provider. */
export const MAX_SEARCH_NAME_WORDS = 32
/** Longest `country` / `industry` filter (characters). */
export const MAX_SEARCH_FILTER_LENGTH = 100

/**
 * `parameters` of `/api/search/companies`: every filter optional. `limit` is this kit's addition (the spec
 * leaves result size open).
 */
export const CompaniesParametersSchema = Type.Object(
  {
    name: Maybe(Type.String({ maxLength: MAX_SEARCH_NAME_LENGTH })),
    country: Maybe(Type.String({ maxLength: MAX_SEARCH_FILTER_LENGTH })),
    industry: Maybe(Type.String({ maxLength: MAX_SEARCH_FILTER_LENGTH })),
    limit: Maybe(Type.Integer({ minimum: 1, maximum: 10_000 })),
  },
  { additionalProperties: true, title: 'CompaniesParameters' },
)
export type CompaniesParameters = Static<typeof CompaniesParametersSchema>

/**
 * `parameters` of `/api/search/sanctions`: `name` is required and non-empty (spec). `threshold` (0-100) and
 * `limit` are this kit's additions.
 */
export const SanctionsParametersSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: MAX_SEARCH_NAME_LENGTH, pattern: NON_BLANK_PATTERN }),
    country: Maybe(Type.String({ maxLength: MAX_SEARCH_FILTER_LENGTH })),
    threshold: Maybe(Type.Number({ minimum: 0, maximum: 100 })),
    limit: Maybe(Type.Integer({ minimum: 1, maximum: 1000 })),
  },
  { additionalProperties: true, title: 'SanctionsParameters' },
)
export type SanctionsParameters = Static<typeof SanctionsParametersSchema>
