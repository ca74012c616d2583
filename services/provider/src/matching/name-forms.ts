import { consonantSkeleton, skeletonName } from './consonant-skeleton'
import { detectScript } from './detect-script'
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
}

/** One way a listed name is indexed: as written, or a Latin spelling of it. */
export interface ListedForm {
  prepared: PreparedName
  transliterated: boolean
  /** Written in Arabic or Hebrew (`ABJAD_SCRIPTS`). */
  abjad: boolean
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
    { prepared: original, transliterated: false, skeletal: false, abjadOnly: false },
  ]
  const abjad = ABJAD_SCRIPTS.has(script)
  for (const latin of toLatin(name, script))
    forms.push({
      prepared: abjad ? skeletonName(prepareListedName(latin)) : prepareQueryName(latin),
      transliterated: true,
      skeletal: abjad,
      abjadOnly: false,
    })
  if (script === 'Latn')
    forms.push({
      prepared: skeletonName(prepareQueryName(name.replace(ARABIC_ARTICLE, '$1'))),
      transliterated: false,
      skeletal: true,
      abjadOnly: true,
    })
  return forms.filter((form) => form.prepared.parts.length > 0 || form === forms[0])
}

/** The forms a listed name is indexed in: as written (`script` its `detectScript`), then its Latin spellings. */
export function listedForms(name: string, script: string): ListedForm[] {
  const abjad = ABJAD_SCRIPTS.has(script)
  return [
    { prepared: prepareListedName(name), transliterated: false, abjad },
    ...toLatin(name, script).map((latin) => ({
      prepared: prepareListedName(latin),
      transliterated: true,
      abjad,
    })),
  ]
}

/**
 * Whether a query form is compared with a listed form at all: a Latin query's skeleton only with names written
 * in Arabic or Hebrew, and their unvowelled Latin spellings only with skeletons.
 */
export function formsMeet(
  query: QueryForm,
  { abjad, transliterated }: Omit<ListedForm, 'prepared'>,
): boolean {
  if (query.abjadOnly && !abjad) return false
  return query.skeletal || !(abjad && transliterated)
}

/** `scoreName` of a listed form for a query form (between skeletons when the query form is one). */
export function scoreForm(query: QueryForm, listed: ListedForm): number {
  return scoreName(query.prepared, query.skeletal ? skeletonName(listed.prepared) : listed.prepared)
}

/** `explainScore` of a listed form for a query form, as `scoreForm` scores it. */
export function explainForm(query: QueryForm, listed: PreparedName): ScoreExplanation {
  return explainScore(query.prepared, query.skeletal ? skeletonName(listed) : listed)
}
