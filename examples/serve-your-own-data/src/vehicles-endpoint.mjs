import { readFileSync } from 'node:fs'
import { defineEndpoint } from '@pf/provider-kit'

/** The vehicles of a JSON Lines file, read once at start (a small file: a real store would stream). */
export function loadVehicles(file) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line))
}

const lower = (text) => text.trim().toLowerCase()

/**
 * POST /api/search/vehicles: `make` is required and non-empty (a missing or blank one is a 400
 * {error, queryId} the kit answers from the schema), `model` and `country` narrow it, `limit` caps an answer.
 */
export function vehiclesEndpoint(vehicles) {
  return defineEndpoint({
    name: 'vehicles',
    summary: 'Vehicles by make, model and country of registration',
    parameters: {
      type: 'object',
      properties: {
        make: { type: 'string', minLength: 1, maxLength: 100, pattern: '\\S' },
        model: { type: ['string', 'null'], maxLength: 100 },
        country: { type: ['string', 'null'], minLength: 2, maxLength: 2 },
        limit: { type: ['integer', 'null'], minimum: 1, maximum: 1000 },
      },
      required: ['make'],
      additionalProperties: false,
    },
    search({ make, model, country, limit }, { logger }) {
      const matches = vehicles.filter(
        (vehicle) =>
          lower(vehicle.make) === lower(make) &&
          (!model || lower(vehicle.model) === lower(model)) &&
          (!country || vehicle.country === country.toUpperCase()),
      )
      const cap = limit ?? 100
      logger.debug({ matches: matches.length }, 'vehicles searched')
      // More than the cap: the answer says `truncated: true`, never cut silently.
      return { results: matches.slice(0, cap), truncated: matches.length > cap }
    },
  })
}
