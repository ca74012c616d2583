import { Writable } from 'node:stream'
import { createLogger, redactUrl, redactUrls } from '@pf/service-kit'

// Issue 35: one redaction for every printed address: userinfo and credential-like query parameters hidden,
// the rest shown as written.
describe('redactUrl hides what stands before the last @ and the values of credential-like parameters', () => {
  it.each([
    ['https://reader:pw@host/sdn.csv?format=csv&token=abc', 'https://***@host/sdn.csv?format=csv&token=***'],
    ['redis://:s3cret@cache:6379/0', 'redis://***@cache:6379/0'],
    ['redis://default:p@ss@cache:6379', 'redis://***@cache:6379'],
    ['postgres://pf@db/pf?sslmode=require&password=x', 'postgres://***@db/pf?sslmode=require&password=***'],
    [
      'https://h/jwks?access_token=a&apiKey=b&api_key=c&sig=d',
      'https://h/jwks?access_token=***&apiKey=***&api_key=***&sig=***',
    ],
    [
      'https://b.s3.amazonaws.com/k?X-Amz-Credential=AK%2F1&X-Amz-Signature=ff&X-Amz-Expires=60',
      'https://b.s3.amazonaws.com/k?X-Amz-Credential=***&X-Amz-Signature=***&X-Amz-Expires=60',
    ],
    ['https://h/cb?code=abc&countryCode=GB&state=1', 'https://h/cb?code=***&countryCode=GB&state=1'],
    ['https://h/cb#access_token=abc&expires_in=60', 'https://h/cb#access_token=***&expires_in=60'],
    ['https://h/x?token=', 'https://h/x?token='],
    ['http://user:s3cret@host:bad/x', 'http://***@host:bad/x'],
    ['allow-empty:un-xml:https://u:pw@h/un.xml?key=k', 'allow-empty:un-xml:https://***@h/un.xml?key=***'],
    ['user:pw@cache:6379', '***@cache:6379'],
    ['/data/@lists/sdn.csv', '/data/@lists/sdn.csv'],
    ['data/reference/un.xml', 'data/reference/un.xml'],
    ['http://127.0.0.1:3002/api/lists', 'http://127.0.0.1:3002/api/lists'],
  ])('%s is shown as %s', (address, shown) => {
    expect(redactUrl(address)).toBe(shown)
  })
})

describe('redactUrls shows every address in a text as redactUrl does', () => {
  it('finds each address, stopping at spaces, quotes and the punctuation around it', () => {
    expect(
      redactUrls(
        'Request cannot be constructed from a URL that includes credentials: http://u:p@h/j?token=a (see https://x:y@docs/a).',
      ),
    ).toBe(
      'Request cannot be constructed from a URL that includes credentials: http://***@h/j?token=*** (see https://***@docs/a).',
    )
    expect(redactUrls('{"url":"redis://:pw@c:6379","msg":"no address here"}')).toBe(
      '{"url":"redis://***@c:6379","msg":"no address here"}',
    )
  })

  it("the kit's logger writes every address so, in a field, its message or an error's", () => {
    const lines: string[] = []
    const logger = createLogger({
      name: 'test',
      destination: new Writable({ write: (chunk, _enc, done) => void (lines.push(String(chunk)), done()) }),
    })
    logger.warn(
      { source: 'https://reader:pw1@h/x?token=t1', err: new Error('GET http://a:pw2@h/y?sig=t2 failed') },
      'refresh of https://b:pw3@h/z failed',
    )
    expect(lines.join('')).toContain('"source":"https://***@h/x?token=***"')
    expect(lines.join('')).toContain('GET http://***@h/y?sig=*** failed')
    expect(lines.join('')).toContain('refresh of https://***@h/z failed')
    expect(lines.join('')).not.toMatch(/pw\d|t\d"|t\d /)
  })
})
