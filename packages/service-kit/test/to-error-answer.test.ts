import { ServiceError, toErrorAnswer, type ErrorTable } from '@pf/service-kit'

type Code = 'ERR_BUSY' | 'ERR_BAD'
class BusyError extends ServiceError<Code> {
  readonly code = 'ERR_BUSY'
}
const table: ErrorTable<Code> = { ERR_BUSY: { status: 503 }, ERR_BAD: 400 }

describe("toErrorAnswer(error, table): the answer to an error from the service's one table", () => {
  it('takes the status of a code in the table (a number or a row with a status), with the message and extra', () => {
    const busy = new BusyError('try later', { extra: { queryId: 'q' }, headers: { 'Retry-After': '5' } })
    expect(toErrorAnswer(busy, table)).toEqual({
      status: 503,
      code: 'ERR_BUSY',
      headers: { 'Retry-After': '5' },
      body: { error: 'try later', queryId: 'q' },
    })
    expect(toErrorAnswer(Object.assign(new Error('bad'), { code: 'ERR_BAD' }), table)).toMatchObject({
      status: 400,
      body: { error: 'bad' },
    })
  })

  it('keeps a 4xx status an error carries (body-parser), and answers anything else 500 without its message', () => {
    expect(toErrorAnswer(Object.assign(new Error('too big'), { status: 413 }), table)).toMatchObject({
      status: 413,
      body: { error: 'too big' },
    })
    expect(toErrorAnswer(new Error('secret detail'), table)).toMatchObject({
      status: 500,
      body: { error: 'internal error' },
    })
    expect(toErrorAnswer(undefined, table).status).toBe(500)
  })

  it('lets the service shape the body and add headers', () => {
    const answer = toErrorAnswer(new BusyError('x'), table, {
      toBody: ({ status, code }) => ({ status, code }),
      headersOf: () => ({ 'X-Why': 'busy' }),
    })
    expect(answer).toMatchObject({ body: { status: 503, code: 'ERR_BUSY' }, headers: { 'X-Why': 'busy' } })
  })
})
