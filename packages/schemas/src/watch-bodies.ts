import { Type, type Static } from '@sinclair/typebox'
import { Maybe, NON_BLANK_PATTERN } from './lib/nullable'
import {
  MAX_BIRTH_YEAR,
  MAX_LIST_NAME_LENGTH,
  MAX_SCREENING_LISTS,
  MAX_SEARCH_FILTER_LENGTH,
  MAX_SEARCH_NAME_LENGTH,
  MIN_BIRTH_YEAR,
  SCREENING_ENTITY_TYPES,
} from './search-parameters'

/** Longest `watchId`, `subjectId` (characters): ids the caller chooses, kept in URLs and alerts. */
export const MAX_WATCH_ID_LENGTH = 128
/** Longest `alertUrl` and `alertToken` (characters). */
export const MAX_ALERT_URL_LENGTH = 2048
export const MAX_ALERT_TOKEN_LENGTH = 512
/** Longest decision `note` and `decidedBy` (characters). */
export const MAX_DECISION_NOTE_LENGTH = 2000
export const MAX_DECIDED_BY_LENGTH = 256

/** A caller's id: printable, no slash (it is a path segment). */
const Id = Type.String({ minLength: 1, maxLength: MAX_WATCH_ID_LENGTH, pattern: '^[^/\\s][^/]*$' })
const EntityType = Type.Union(SCREENING_ENTITY_TYPES.map((type) => Type.Literal(type)))

/** `PUT /api/watches/{watchId}`: where alerts go, the token that signs them, and the screening choices. */
export const WatchBodySchema = Type.Object(
  {
    alertUrl: Type.String({ minLength: 1, maxLength: MAX_ALERT_URL_LENGTH }),
    alertToken: Type.String({ minLength: 1, maxLength: MAX_ALERT_TOKEN_LENGTH }),
    threshold: Maybe(Type.Integer({ minimum: 0, maximum: 100 })),
    lists: Maybe(
      Type.Array(Type.String({ minLength: 1, maxLength: MAX_LIST_NAME_LENGTH }), {
        minItems: 1,
        maxItems: MAX_SCREENING_LISTS,
      }),
    ),
    entityType: Maybe(EntityType),
  },
  { additionalProperties: false, title: 'WatchBody' },
)
export type WatchBody = Static<typeof WatchBodySchema>

/** One watched subject, as `POST /api/watches/{watchId}/subjects` takes it (upserted by `subjectId`). */
export const WatchSubjectSchema = Type.Object(
  {
    subjectId: Id,
    name: Type.String({ minLength: 1, maxLength: MAX_SEARCH_NAME_LENGTH, pattern: NON_BLANK_PATTERN }),
    country: Maybe(Type.String({ maxLength: MAX_SEARCH_FILTER_LENGTH })),
    birthYear: Maybe(Type.Integer({ minimum: MIN_BIRTH_YEAR, maximum: MAX_BIRTH_YEAR })),
    entityType: Maybe(EntityType),
  },
  { additionalProperties: false, title: 'WatchSubject' },
)
export type WatchSubject = Static<typeof WatchSubjectSchema>

/** `POST /api/watches/{watchId}/decisions`: a reviewer's decision on one subject and one listed entry. */
export const WatchDecisionSchema = Type.Object(
  {
    subjectId: Id,
    list: Type.String({ minLength: 1, maxLength: MAX_LIST_NAME_LENGTH }),
    entryId: Type.String({ minLength: 1, maxLength: MAX_WATCH_ID_LENGTH }),
    decision: Type.Union([Type.Literal('false_positive'), Type.Literal('match')]),
    note: Maybe(Type.String({ maxLength: MAX_DECISION_NOTE_LENGTH })),
    decidedBy: Maybe(Type.String({ maxLength: MAX_DECIDED_BY_LENGTH })),
  },
  { additionalProperties: false, title: 'WatchDecision' },
)
export type WatchDecision = Static<typeof WatchDecisionSchema>

/** What a `watchId` or `subjectId` in a path must be. */
export const WATCH_ID_PATTERN = /^[^/\s][^/]{0,127}$/
