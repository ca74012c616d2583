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
/** Most list names a screening's `lists` may hold, and the longest name (characters). */
export const MAX_SCREENING_LISTS = 64
export const MAX_LIST_NAME_LENGTH = 128
/** What a screening's `entityType` may be. */
export const SCREENING_ENTITY_TYPES = ['person', 'organization', 'vessel', 'aircraft'] as const
/** The years a screening's `birthYear` may be. */
export const MIN_BIRTH_YEAR = 1800
export const MAX_BIRTH_YEAR = 2100

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
 * `parameters` of `/api/search/sanctions`: `name` is required and non-empty (spec). This kit's optional
 * additions: `threshold` (0-100), `limit`, `lists` (list names as the provider's `/api/lists` shows them; the
 * provider refuses a name it does not hold), `entityType` and `birthYear`.
 */
export const SanctionsParametersSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: MAX_SEARCH_NAME_LENGTH, pattern: NON_BLANK_PATTERN }),
    country: Maybe(Type.String({ maxLength: MAX_SEARCH_FILTER_LENGTH })),
    threshold: Maybe(Type.Number({ minimum: 0, maximum: 100 })),
    limit: Maybe(Type.Integer({ minimum: 1, maximum: 1000 })),
    lists: Maybe(
      Type.Array(Type.String({ minLength: 1, maxLength: MAX_LIST_NAME_LENGTH }), {
        minItems: 1,
        maxItems: MAX_SCREENING_LISTS,
      }),
    ),
    entityType: Maybe(Type.Union(SCREENING_ENTITY_TYPES.map((type) => Type.Literal(type)))),
    birthYear: Maybe(Type.Integer({ minimum: MIN_BIRTH_YEAR, maximum: MAX_BIRTH_YEAR })),
  },
  { additionalProperties: true, title: 'SanctionsParameters' },
)
export type SanctionsParameters = Static<typeof SanctionsParametersSchema>
