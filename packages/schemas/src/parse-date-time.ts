// The forms the schemas' `format: 'date-time'` accepts, as ajv-formats 3 (full mode, `addFormats(ajv)`) checks
// them (node_modules/ajv-formats/dist/formats.js: `getDateTime(true)`, `date`, `getTime(true)`): the input split
// on `t`, `T` or any whitespace into exactly two parts; `YYYY-MM-DD` a real day; `hh:mm:ss` with any number of
// fraction digits; then `Z`/`z` or an offset `+hh`, `+hhmm` or `+hh:mm` (hh ≤ 23, mm ≤ 59). `Date.parse` reads
// none of `+hh`, and no leap second. The split and the case-insensitive letters are the same here, so the one
// separator and the letters match what ajv matches; the numbers are then held to ajv's own checks below.
const DATE_TIME =
  /^(\d\d\d\d)-(\d\d)-(\d\d)[t\s](\d\d):(\d\d):(\d\d(?:\.\d+)?)(?:z|([+-])(\d\d)(?::?(\d\d))?)$/i
const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)

/**
 * Reads a date-time exactly as the schemas accept it (`format: 'date-time'`: the webhook `timestamp`, a
 * session's `startTime`, `expiresAt`…), in epoch milliseconds; undefined for anything the schemas refuse.
 * Every form they accept is read, `Date.parse`'s gaps included: an hour-only offset (`+01`), a lower-case
 * `t`/`z`, a space for the `T`, and a leap second (`23:59:60Z`), read as the last millisecond of its minute
 * (`23:59:59.999Z`), so it sorts after every other instant of that minute and before the next. Digits past the
 * millisecond are dropped, never rounded up into the next second.
 *
 * @example
 * parseDateTime('2020-01-01T00:00:00+01') // 1577833200000, 2019-12-31T23:00:00.000Z
 * parseDateTime('2016-12-31T23:59:60Z') // 1483228799999, 2016-12-31T23:59:59.999Z
 * parseDateTime('2020-01-01T00:00:00') // undefined: no offset, as the schemas refuse it
 */
export function parseDateTime(value: string): number | undefined {
  const match = DATE_TIME.exec(value)
  if (!match) return undefined
  // The pattern fixes where the date's and the time's digits are: read them there, without a substring or a
  // string-to-number conversion each (V8 calls into its runtime for those: the most of a validation's cost).
  const year = digits(value, 0, 4)
  const month = digits(value, 5, 2)
  const day = digits(value, 8, 2)
  const hour = digits(value, 11, 2)
  const minute = digits(value, 14, 2)
  const wholeSeconds = digits(value, 17, 2)
  const tzSign = match[7] === '-' ? -1 : 1
  const tzH = match[8] === undefined ? 0 : digits(match[8], 0, 2)
  const tzM = match[9] === undefined ? 0 : digits(match[9], 0, 2)
  if (month < 1 || month > 12 || day < 1) return undefined
  if (day > (month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month] as number))) return undefined
  if (tzH > 23 || tzM > 59) return undefined
  // ajv's own test, its float seconds included ("59.99999999999999999" is 60 to it, "60.99999999999999999" 61): a
  // time of the day, or a leap second, i.e. one whose minute is 23:59 in UTC (ajv lets the local hour and minute
  // run past 23 and 59 there, as long as the offset brings them back to it; the arithmetic below reads those as
  // it does). Below 59 whole seconds, the fraction cannot change either comparison (with 60 and 61).
  const seconds = wholeSeconds < 59 ? wholeSeconds : Number(match[6])
  if (!(hour <= 23 && minute <= 59 && seconds < 60)) {
    const utcMinute = minute - tzM * tzSign
    const utcHour = hour - tzH * tzSign - (utcMinute < 0 ? 1 : 0)
    const lastMinuteOfDay = (utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1)
    if (!(lastMinuteOfDay && seconds < 61)) return undefined
  }
  const millis = wholeSeconds >= 60 ? 999 : fractionMillis(match[6] as string)
  const offsetMinutes = tzSign * (tzH * 60 + tzM)
  const minutes = hour * 60 + minute - offsetMinutes
  return utcMidnight(year, month, day) + (minutes * 60 + Math.min(wholeSeconds, 59)) * 1000 + millis
}

/** The number `length` ASCII digits make from `start` on (the pattern has checked they are digits). */
function digits(text: string, start: number, length: number): number {
  let number = 0
  for (let i = start; i < start + length; i += 1) number = number * 10 + text.charCodeAt(i) - 48
  return number
}

/** The milliseconds of `ss.fff…` (its first three fraction digits, zeros where there are fewer; none dropped up). */
function fractionMillis(secondsText: string): number {
  let millis = 0
  for (let i = 3; i < 6; i += 1)
    millis = millis * 10 + (i < secondsText.length ? secondsText.charCodeAt(i) - 48 : 0)
  return millis
}

/** Epoch milliseconds of a day's midnight in UTC, for the years 0 to 9999 alike. */
function utcMidnight(year: number, month: number, day: number): number {
  if (year >= 100) return Date.UTC(year, month - 1, day)
  // Date.UTC reads years 0-99 as 1900-1999; setUTCFullYear does not.
  const midnight = new Date(0)
  midnight.setUTCFullYear(year, month - 1, day)
  return midnight.getTime()
}
