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
  const field = (group: number) => Number(match[group] ?? 0)
  const [year, month, day, hour, minute] = [field(1), field(2), field(3), field(4), field(5)]
  const [tzSign, tzH, tzM] = [match[7] === '-' ? -1 : 1, field(8), field(9)]
  const secondsText = match[6] as string
  if (month < 1 || month > 12 || day < 1) return undefined
  if (day > (month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month] as number))) return undefined
  if (tzH > 23 || tzM > 59) return undefined
  // ajv's own test, its float seconds included ("59.99999999999999999" is 60 to it): a time of the day, or a
  // leap second, i.e. one whose minute is 23:59 in UTC (ajv lets the local hour and minute run past 23 and 59
  // there, as long as the offset brings them back to it; the arithmetic below reads those as it does).
  const seconds = Number(secondsText)
  if (!(hour <= 23 && minute <= 59 && seconds < 60)) {
    const utcMinute = minute - tzM * tzSign
    const utcHour = hour - tzH * tzSign - (utcMinute < 0 ? 1 : 0)
    const lastMinuteOfDay = (utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1)
    if (!(lastMinuteOfDay && seconds < 61)) return undefined
  }
  const wholeSeconds = Number(secondsText.slice(0, 2))
  const millis = wholeSeconds >= 60 ? 999 : Number(`${secondsText.slice(3)}00`.slice(0, 3))
  // Date.UTC reads years 0-99 as 1900-1999; setUTCFullYear does not.
  const midnight = new Date(0)
  midnight.setUTCFullYear(year, month - 1, day)
  const offsetMinutes = tzSign * (tzH * 60 + tzM)
  const minutes = hour * 60 + minute - offsetMinutes
  return midnight.getTime() + (minutes * 60 + Math.min(wholeSeconds, 59)) * 1000 + millis
}
