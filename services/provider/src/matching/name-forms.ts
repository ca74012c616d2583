import { consonantSkeleton, skeletonName } from './consonant-skeleton'
import { detectScript } from './detect-script'
import { koreanName } from './korean-name'
import { explainScore, scoreName, type ScoreExplanation } from './name-score'
import { prepareListedName, prepareQueryName, type PreparedName } from './prepare-name'
import { ABJAD_SCRIPTS, toLatin } from './to-latin'

export { consonantSkeleton }

/** One way a query is compared: as written, or a Latin spelling of it. */
export interface QueryForm {
  prepared: PreparedName
  /** A Latin spelling of a name written in another script (`toLatin`). */
  transliterated: boolean
  /** Compared by consonant skeletons (`skeletonName`): Arabic or Hebrew, or a Latin query against those. */
  skeletal: boolean
  /** Compared with names written in Arabic or Hebrew only: a Latin query's skeleton. */
  abjadOnly: boolean
  /** A Korean name's romanisation keys (`koreanName`), compared with listed names' keys only. */
  korean: boolean
}

/** One way a listed name is indexed: as written, or a Latin spelling of it. */
export interface ListedForm {
  prepared: PreparedName
  transliterated: boolean
  /** Written in Arabic or Hebrew (`ABJAD_SCRIPTS`). */
  abjad: boolean
  /** Romanisation keys of a Korean name (`koreanName`). */
  korean: boolean
}

// The Arabic article as Latin lists write it before a word ("AL-TIKRITI", "EL SAYED"): `toLatin` drops it from
// Arabic script, so a Latin query's skeleton does too.
const ARABIC_ARTICLE = /(^|[\s-])[AE]L[-\s]+(?=\p{L}{2})/giu

/**
 * The forms a query is screened in, the name as written first (the one form of a Latin query against Latin
 * names, so Latin screening is what it was): then its Latin spellings (as consonant skeletons for Arabic and
 * Hebrew, whose vowels are not written); a Latin query's consonant skeleton, for names written in Arabic or
 * Hebrew. A listed name's score is the best over the forms.
 */
export function queryForms(name: string): QueryForm[] {
  const script = detectScript(name)
  const original = prepareQueryName(name)
  const forms: QueryForm[] = [
    { prepared: original, transliterated: false, skeletal: false, abjadOnly: false, korean: false },
  ]
  const abjad = ABJAD_SCRIPTS.has(script)
  for (const latin of toLatin(name, script))
    forms.push({
      prepared: abjad ? skeletonName(prepareListedName(latin)) : prepareQueryName(latin),
      transliterated: true,
      skeletal: abjad,
      abjadOnly: false,
      korean: false,
    })
  if (script === 'Latn')
    forms.push({
      prepared: skeletonName(prepareQueryName(name.replace(ARABIC_ARTICLE, '$1'))),
      transliterated: false,
      skeletal: true,
      abjadOnly: true,
      korean: false,
    })
  for (const prepared of koreanForms(name, script, prepareQueryName))
    forms.push({
      prepared,
      transliterated: script !== 'Latn',
      skeletal: false,
      abjadOnly: false,
      korean: true,
    })
  return forms.filter((form) => form.prepared.parts.length > 0 || form === forms[0])
}

/** The forms a listed name is indexed in: as written (`script` its `detectScript`), then its Latin spellings. */
export function listedForms(name: string, script: string): ListedForm[] {
  const abjad = ABJAD_SCRIPTS.has(script)
  return [
    { prepared: prepareListedName(name), transliterated: false, abjad, korean: false },
    ...toLatin(name, script).map((latin) => ({
      prepared: prepareListedName(latin),
      transliterated: true,
      abjad,
      korean: false,
    })),
    ...koreanForms(name, script, prepareListedName).map((prepared) => ({
      prepared,
      transliterated: script !== 'Latn',
      abjad,
      korean: true,
    })),
  ]
}

/**
 * The Korean romanisation keys (`koreanName`) of a Latin name, or of a Hangul name's Latin spellings, each once:
 * how "Gim Jeong-eun" meets "KIM Jong Un" and "Lee" meets "Ri", which Jaro-Winkler alone scores far apart.
 */
function koreanForms(name: string, script: string, prepare: (name: string) => PreparedName): PreparedName[] {
  if (script !== 'Latn' && script !== 'Hang') return []
  const forms = new Map<string, PreparedName>()
  for (const latin of script === 'Latn' ? [name] : toLatin(name, script)) {
    const form = koreanName(latin, prepare)
    if (form && form.parts.length > 0) forms.set(form.parts.join(' '), form)
  }
  return [...forms.values()]
}

/**
 * Whether a query form is compared with a listed form at all: a Latin query's skeleton only with names written
 * in Arabic or Hebrew, and their unvowelled Latin spellings only with skeletons; Korean keys only with keys.
 */
export function formsMeet(
  query: QueryForm,
  { abjad, transliterated, korean }: Omit<ListedForm, 'prepared'>,
): boolean {
  // Romanisation keys meet keys only: a Latin query's own form compares as it always did.
  if (query.korean !== korean) return false
  if (query.abjadOnly && !abjad) return false
  return query.skeletal || !(abjad && transliterated)
}

/** A listed name as a query form compares it: its consonant skeleton when the form is one. */
export function comparedListed(query: QueryForm, listed: PreparedName): PreparedName {
  return query.skeletal ? skeletonName(listed) : listed
}

/** `scoreName` of a listed form for a query form (between skeletons when the query form is one). */
export function scoreForm(query: QueryForm, listed: ListedForm): number {
  return scoreName(query.prepared, comparedListed(query, listed.prepared))
}

/** `explainScore` of a listed form for a query form, as `scoreForm` scores it. */
export function explainForm(query: QueryForm, listed: PreparedName): ScoreExplanation {
  return explainScore(query.prepared, query.skeletal ? skeletonName(listed) : listed)
}
