import { defineEndpoint, type EndpointDefinition } from '@pf/provider-kit'
import { SanctionsParametersSchema, type SanctionsParameters } from '@pf/schemas'
import type { SanctionMatch } from '../screening/sanctions-index'
import type { SearchEngine } from '../search-engine'
import { nameWordsProblem } from './name-words-problem'

/** The list names a screening's `lists` may use: the lists and sub-lists in use. */
export type ListNames = { has(name: string): boolean }

/** The versions of the sanctions lists a screening ran on. */
const lists = {
  type: 'array',
  items: {
    type: 'object',
    properties: { name: { type: 'string' }, sha256: { type: 'string' } },
    required: ['name', 'sha256'],
    additionalProperties: false,
  },
}

/** What the OpenAPI document reads of the sanctions endpoint. */
export const SANCTIONS = {
  name: 'sanctions',
  parameters: SanctionsParametersSchema,
  answerFields: {
    totalMatches: {
      type: 'integer',
      minimum: 0,
      description: 'screening, when truncated: how many entries reached the threshold in all',
    },
    lists,
  },
}

/**
 * A screening's own refusals: a `name` of too many words; `lists` naming a list that is not in use (each
 * once; with `listNames` unset, any name passes).
 */
export function sanctionsProblem(parameters: SanctionsParameters, listNames?: ListNames): string | undefined {
  const words = nameWordsProblem(parameters)
  if (words) return words
  const unknown = listNames ? [...new Set((parameters.lists ?? []).filter((l) => !listNames.has(l)))] : []
  if (unknown.length > 0)
    return `lists names no list in use: ${unknown.map((l) => JSON.stringify(l)).join(', ')} (GET /api/lists shows them)`
  return undefined
}

/**
 * `POST /api/search/sanctions`: screening on one snapshot of the lists. The lists a query may name are those
 * of the snapshot it will screen: the kit runs the check and the search in one turn of the event loop, so no
 * refresh comes between. The answer says how many entries matched when `limit` cut them, and the list versions.
 */
export function sanctionsEndpoint(
  engine: Pick<SearchEngine, 'lists' | 'searchSanctions'>,
): EndpointDefinition<SanctionsParameters, SanctionMatch> {
  return defineEndpoint({
    ...SANCTIONS,
    check: (parameters) => sanctionsProblem(parameters, engine.lists.current().selectable),
    search: (parameters, { deadline }) => {
      const { results, truncated, totalMatches, lists } = engine.searchSanctions(parameters, { deadline })
      return { results, truncated, fields: truncated ? { totalMatches, lists } : { lists } }
    },
  })
}
