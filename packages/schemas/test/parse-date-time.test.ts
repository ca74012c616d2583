import { fullFormats } from 'ajv-formats/dist/formats'
import { parseDateTime, validateWebhookEnvelope } from '@pf/schemas'

// Issue 35: a timestamp is read the way it is validated. ajv-formats' full `date-time` is the authority on what
// is a date-time; parseDateTime must read each value it accepts, and nothing else. The schemas' `format:
// 'date-time'` is checked by parseDateTime itself (faster: issue 38), so it is held to ajv-formats here too.
const ajvFormatsDateTime = (fullFormats['date-time'] as { validate: (value: string) => boolean }).validate
const acceptedByAjvFormats = (timestamp: string) => ajvFormatsDateTime(timestamp)
const acceptedBySchema = (timestamp: string) =>
  validateWebhookEnvelope({ event: 'session.ended', timestamp, webhookId: 'wh_1', data: {} }).ok
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString())

/** Every combination of the parts, joined. */
const combine = (...parts: string[][]): string[] =>
  parts.reduce<string[]>((heads, part) => heads.flatMap((head) => part.map((p) => head + p)), [''])

const DATES = ['2020-02-29', '2019-02-29', '2019-02-28', '2020-04-31', '2020-12-31', '2021-01-01']
const MORE_DATES = [
  '2020-13-01',
  '2020-00-10',
  '2020-01-00',
  '0000-01-01',
  '9999-12-31',
  '1900-02-29',
  '2020-1-01',
]
const SEPARATORS = ['T', 't', ' ', '\t', '\n', '\u00a0', '\u2028', '\u3000', '\ufeff', '_', '', 'TT']
const HOURS = ['00', '01', '12', '22', '23', '24', '25', '47', '99', '0']
const MINUTES = ['00', '01', '58', '59', '60', '99']
const SECONDS = ['00', '30', '59', '60', '61', '59.999', '59.9999999', '60.5', '59.99999999999999999', '5']
const ZONES = [
  ...['Z', 'z', '', '+00', '-00', '+01', '-01', '+0130', '-01:30', '+23:59', '-23:59', '+00:01', '-00:01'],
  ...['+24', '+00:60', '+1', '+01:', '+01:3', 'ZZ', '+01:00Z', 'Z '],
]

describe('parseDateTime reads exactly what format "date-time" accepts (issue 35)', () => {
  const corpus = [
    ...combine(DATES, ['T'], HOURS, [':'], MINUTES, [':'], SECONDS, ZONES),
    ...combine(
      [...DATES, ...MORE_DATES],
      SEPARATORS,
      ['00:00:00', '23:59:60', '12:30:00.5'],
      ['Z', '+01', '-05:30'],
    ),
  ]

  it(`agrees with ajv-formats' date-time, and the schemas with it, on each of ${corpus.length} strings: a number for what it accepts, undefined for the rest`, () => {
    const disagreements = corpus.filter((s) => acceptedByAjvFormats(s) !== (parseDateTime(s) !== undefined))
    expect(disagreements).toEqual([])
    // The schemas' own format check answers the same.
    expect(corpus.filter((s) => acceptedBySchema(s) !== acceptedByAjvFormats(s))).toEqual([])
    // The corpus reaches both sides, and the cases Date.parse cannot read.
    expect(corpus.filter(acceptedByAjvFormats).length).toBeGreaterThan(2000)
    expect(
      corpus.filter((s) => acceptedByAjvFormats(s) && Number.isNaN(Date.parse(s))).length,
    ).toBeGreaterThan(500)
  })

  it("agrees with ajv-formats' date-time, and the schemas with it, on random strings of date-time characters", () => {
    let seed = 35
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    const alphabet = '00112233456789-:.+Tt Zz'
    // Well-formed strings with one or two characters changed, so that both answers come up.
    const bases = [
      '2016-12-31T23:59:59.123+00:00',
      '2016-12-31T23:59:60Z',
      '2020-02-29t00:00:00+01',
      '2020-01-01 12:30:00.5-0530',
    ]
    const samples = Array.from({ length: 20_000 }, (_, i) => {
      const chars = [...(bases[i % bases.length] as string)]
      for (let edits = 1 + Math.floor(random() * 2); edits > 0; edits -= 1)
        chars[Math.floor(random() * chars.length)] = alphabet[
          Math.floor(random() * alphabet.length)
        ] as string
      return chars.join('')
    })
    expect(samples.filter((s) => acceptedByAjvFormats(s) !== (parseDateTime(s) !== undefined))).toEqual([])
    expect(samples.filter((s) => acceptedBySchema(s) !== acceptedByAjvFormats(s))).toEqual([])
    expect(samples.filter(acceptedByAjvFormats).length).toBeGreaterThan(1000)
  })

  it('reads each value Date.parse reads as Date.parse does (digits past the millisecond dropped)', () => {
    const both = combine(DATES, ['T', 't', ' '], HOURS, [':'], MINUTES, [':'], SECONDS, ZONES).filter(
      (s) => acceptedByAjvFormats(s) && Number.isFinite(Date.parse(s)),
    )
    expect(both.length).toBeGreaterThan(1000)
    expect(both.filter((s) => parseDateTime(s) !== Date.parse(s))).toEqual([])
  })

  it.each([
    ['an hour-only offset', '2020-01-01T00:00:00+01', '2019-12-31T23:00:00.000Z'],
    ['an hour-only negative offset, with a fraction', '2020-01-01T00:00:00.5-05', '2020-01-01T05:00:00.500Z'],
    [
      'a leap second (the last millisecond of its minute)',
      '2016-12-31T23:59:60Z',
      '2016-12-31T23:59:59.999Z',
    ],
    ['a leap second with a fraction', '2016-12-31T23:59:60.999999Z', '2016-12-31T23:59:59.999Z'],
    ['a leap second at +01:00 (00:59:60 local)', '2017-01-01T00:59:60+01:00', '2016-12-31T23:59:59.999Z'],
    ['a leap second at -05 (18:59:60 local)', '2016-12-31T18:59:60-05', '2016-12-31T23:59:59.999Z'],
    ['a leap second at -00:01 (00:00:60 local)', '2017-01-01T00:00:60+00:01', '2016-12-31T23:59:59.999Z'],
    ['a local hour past 23 that ajv lets through', '2020-01-01T25:59:30+02:00', '2020-01-01T23:59:30.000Z'],
    [
      'seconds ajv rounds to 60, in the last minute',
      '2020-01-01T23:59:59.99999999999999999Z',
      '2020-01-01T23:59:59.999Z',
    ],
    ['lower-case letters', '2020-01-01t10:00:00z', '2020-01-01T10:00:00.000Z'],
    ['a space for the T', '2020-01-01 10:00:00+02:00', '2020-01-01T08:00:00.000Z'],
    ['a line separator for the T', '2020-01-01\u202810:00:00Z', '2020-01-01T10:00:00.000Z'],
    ['year 0', '0000-03-01T00:00:00Z', '0000-03-01T00:00:00.000Z'],
    ['a year before 100 (not 19xx)', '0099-12-31T23:59:59Z', '0099-12-31T23:59:59.000Z'],
  ])('reads %s: %j is %s', (_case, value, instant) => {
    expect(acceptedByAjvFormats(value)).toBe(true)
    expect(iso(parseDateTime(value))).toBe(instant)
  })

  it('places a leap second after every other instant of its minute and before the next minute', () => {
    const leap = parseDateTime('2016-12-31T23:59:60Z') as number
    expect(leap).toBeGreaterThan(parseDateTime('2016-12-31T23:59:59.998Z') as number)
    expect(leap).toBeLessThan(parseDateTime('2017-01-01T00:00:00Z') as number)
  })

  it.each([
    ['no offset', '2020-01-01T10:00:00'],
    ['a date alone', '2020-01-01'],
    ['30 February', '2020-02-30T10:00:00Z'],
    ['a leap second in another minute', '2016-12-31T12:30:60Z'],
    ['an offset of 24 hours', '2020-01-01T10:00:00+24:00'],
    ['words', 'yesterday'],
  ])('reads nothing from %s (%j), as the schema refuses it', (_case, value) => {
    expect(acceptedByAjvFormats(value)).toBe(false)
    expect(parseDateTime(value)).toBeUndefined()
  })
})
