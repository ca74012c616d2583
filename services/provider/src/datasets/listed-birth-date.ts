/**
 * A date of birth as lists write it, in the form records keep (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`, a range of years
 * `YYYY/YYYY`): ISO dates as they are, "1955 to 1957" as a range, "circa 1955" as its year; null when no year
 * can be read from it.
 *
 * @example
 * listedBirthDate('circa 1955') // '1955'
 */
export function listedBirthDate(text: string): string | null {
  const value = text.trim()
  const iso = /^(\d{4})(-\d{2}(-\d{2})?)?(?:T.*)?$/.exec(value)
  if (iso) return iso[1]! + (iso[2] ?? '')
  const range = /\b(1[89]\d\d|20\d\d)\s*(?:to|-|–|\/)\s*(1[89]\d\d|20\d\d)\b/.exec(value)
  if (range) return `${range[1]}/${range[2]}`
  const year = /\b(1[89]\d\d|20\d\d)\b/.exec(value)
  return year ? year[1]! : null
}
