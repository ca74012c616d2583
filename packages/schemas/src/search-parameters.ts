import { Type, type Static } from '@sinclair/typebox'
import { Maybe, NON_BLANK_PATTERN } from './lib/nullable'

/**
 * `parameters` of `/api/search/companies`: every filter optional. `limit` is this kit's addition (the spec
 * leaves result size open).
 */
export const CompaniesParametersSchema = Type.Object(
  {
    name: Maybe(Type.String()),
    country: Maybe(Type.String()),
    industry: Maybe(Type.String()),
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
    name: Type.String({ minLength: 1, pattern: NON_BLANK_PATTERN }),
    country: Maybe(Type.String()),
    threshold: Maybe(Type.Number({ minimum: 0, maximum: 100 })),
    limit: Maybe(Type.Integer({ minimum: 1, maximum: 1000 })),
  },
  { additionalProperties: true, title: 'SanctionsParameters' },
)
export type SanctionsParameters = Static<typeof SanctionsParametersSchema>
