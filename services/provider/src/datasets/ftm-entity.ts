import { detectScript } from '../matching/detect-script'
import { ListFormatError } from './list-format-error'
import { listedBirthDate } from './listed-birth-date'
import { namesOf, type FoundName } from './listed-names'
import { normalizeCountry } from './normalize-country'
import type { SanctionEntry, SanctionEntryType } from './records'

/** The FollowTheMoney schemas screened, and what each is; other schemas (Address, Sanction, …) are not. */
export const FTM_SCREENED_SCHEMAS: Readonly<Record<string, SanctionEntryType>> = {
  Person: 'individual',
  Organization: 'entity',
  Company: 'entity',
  LegalEntity: 'entity',
  Vessel: 'vessel',
  Airplane: 'aircraft',
}

/** A FollowTheMoney entity as OpenSanctions exports it (one a line). */
export interface FtmEntity {
  id: string
  schema: string
  caption?: string
  properties: Record<string, unknown>
  referents?: string[]
  datasets?: string[]
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : []

/** A FollowTheMoney entity read from a JSON value, or why it is not one. */
export function ftmEntityOf(value: unknown): FtmEntity | string {
  const entity = value as Partial<FtmEntity> | null
  if (typeof entity !== 'object' || entity === null || Array.isArray(entity)) return 'not a JSON object'
  if (typeof entity.id !== 'string' || !entity.id) return 'an entity without id'
  if (typeof entity.schema !== 'string') return `entity ${entity.id} has no schema`
  if (typeof entity.properties !== 'object' || entity.properties === null)
    return `entity ${entity.id} has no properties`
  return entity as FtmEntity
}

// "first last" and "first father last" from a person's name parts, each part in one script (FtM lists
// Владимир and Vladimir side by side: a name is never built across scripts), at most a few of each.
function composedNames(properties: Record<string, unknown>): string[] {
  const [firsts, fathers, lasts] = ['firstName', 'fatherName', 'lastName'].map((p) => strings(properties[p]))
  const names: string[] = []
  for (const first of firsts!.slice(0, 6))
    for (const last of lasts!.slice(0, 6)) {
      const script = detectScript(first)
      if (detectScript(last) !== script) continue
      names.push(`${first} ${last}`)
      for (const father of fathers!.slice(0, 3))
        if (detectScript(father) === script) names.push(`${first} ${father} ${last}`)
    }
  return names
}

const codes = (values: string[]) => [
  ...new Set(values.map(normalizeCountry).filter((code): code is string => code !== null)),
]

/**
 * The entry of a screened FollowTheMoney entity (`FTM_SCREENED_SCHEMAS`), undefined for other schemas or an
 * entity without a name: `caption` (else its first name) as its name; `name`, `alias`, composed first/father/
 * last names as aliases, `previousName` as former names, `weakAlias` as weak aliases; `country` as its
 * countries, `nationality` and `citizenship`, `birthDate`; its id and `referents` as `sameAs`.
 */
export function ftmEntry(entity: FtmEntity): SanctionEntry | undefined {
  const type = FTM_SCREENED_SCHEMAS[entity.schema]
  if (!type) return undefined
  const p = entity.properties
  const found: FoundName[] = [
    { name: entity.caption, kind: 'primary' },
    ...[...strings(p.name), ...strings(p.alias)].map((name) => ({ name, kind: 'alias' as const })),
    ...(type === 'individual' ? composedNames(p) : []).map((name) => ({ name, kind: 'alias' as const })),
    ...strings(p.previousName).map((name) => ({ name, kind: 'previous' as const })),
    ...strings(p.weakAlias).map((name) => ({ name, kind: 'weak-alias' as const })),
  ]
  const names = namesOf(found)
  if (!names) return undefined
  const birthDates = strings(p.birthDate)
    .map(listedBirthDate)
    .filter((date): date is string => date !== null)
  const nationalities = codes([...strings(p.nationality), ...strings(p.citizenship)])
  const datasets = strings(entity.datasets)
  return {
    id: entity.id,
    ...names,
    type,
    programs: strings(p.program),
    countries: codes(strings(p.country)),
    remarks: strings(p.notes)[0] ?? null,
    source: datasets.length > 0 ? `OpenSanctions (${datasets.join(', ')})` : 'OpenSanctions',
    ...(birthDates.length > 0 ? { birthDates: [...new Set(birthDates)] } : {}),
    ...(nationalities.length > 0 ? { nationalities } : {}),
    sameAs: [entity.id, ...strings(entity.referents)],
  }
}

/** `ftmEntityOf`, throwing a `ListFormatError` at `line` of `file` for what is not an entity. */
export function requireFtmEntity(value: unknown, file: string, line: number): FtmEntity {
  const entity = ftmEntityOf(value)
  if (typeof entity === 'string') throw new ListFormatError(file, { line }, entity)
  return entity
}
