import { ConfigError, createEnvReader } from '@pf/service-kit'

describe('createEnvReader collects every configuration problem into one readable error', () => {
  it('reads values with defaults, treating empty strings as unset', () => {
    const env = createEnvReader({ PORT: '8080', EMPTY: '  ', FLAG: 'yes', LIST: 'a, b,,c' })
    expect(env.int('PORT', { default: 1 })).toBe(8080)
    expect(env.string('EMPTY', 'fallback')).toBe('fallback')
    expect(env.bool('FLAG', false)).toBe(true)
    expect(env.list('LIST')).toEqual(['a', 'b', 'c'])
    expect(env.oneOf('STYLE', ['realm', 'tenant'] as const, 'realm')).toBe('realm')
    expect(() => env.done()).not.toThrow()
  })

  it('throws one ConfigError naming each bad setting', () => {
    const env = createEnvReader({ PORT: 'eighty', STYLE: 'ldap', FLAG: 'maybe', URL: 'nope' })
    env.required('SECRET')
    env.int('PORT', { default: 1, min: 1, max: 65535 })
    env.oneOf('STYLE', ['realm', 'tenant'] as const)
    env.bool('FLAG', false)
    env.url('URL')
    let error: unknown
    try {
      env.done()
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as ConfigError).message).toBe(
      'invalid configuration: SECRET is required; PORT must be an integer >= 1 and <= 65535 (got "eighty"); ' +
        'STYLE must be one of realm, tenant (got "ldap"); FLAG must be true or false (got "maybe"); ' +
        'URL must be a URL (got "nope")',
    )
  })

  it("include(read): a library's own reader gets this environment; its problems join these, its secrets get production's check", () => {
    const library = (source: Readonly<Record<string, string | undefined>>) => ({
      settings: { token: source.LIB_TOKEN ?? '' },
      problems: source.LIB_TOKEN ? [] : ['LIB_TOKEN is required'],
      secrets: [{ name: 'LIB_TOKEN', values: [source.LIB_TOKEN ?? ''], minBytes: 32 }],
    })
    const problemsOf = (source: Record<string, string>) => {
      const env = createEnvReader(source)
      env.required('OWN')
      env.include(library)
      try {
        env.done()
        return []
      } catch (error) {
        return (error as ConfigError).problems
      }
    }
    expect(createEnvReader({ LIB_TOKEN: 'x' }).include(library)).toEqual({ token: 'x' })
    expect(problemsOf({})).toEqual(['OWN is required', 'LIB_TOKEN is required'])
    expect(problemsOf({ OWN: '1', LIB_TOKEN: 'short' })).toEqual([])
    expect(problemsOf({ OWN: '1', LIB_TOKEN: 'short', NODE_ENV: 'production' })).toEqual([
      'LIB_TOKEN must be at least 32 bytes when NODE_ENV=production (got 5)',
    ])
  })

  it('done(settings) returns them, or hands them to a doctor on the ConfigError, never to a log of it', () => {
    const good = createEnvReader({ PORT: '80' })
    const read = { port: good.int('PORT', { default: 1 }) }
    expect(good.done(read)).toBe(read)
    const bad = createEnvReader({ PORT: 'eighty', SECRET: 'hunter2' })
    const partial = { port: bad.int('PORT', { default: 1 }), secret: bad.required('SECRET') }
    const error = (() => {
      try {
        bad.done(partial)
      } catch (caught) {
        return caught as ConfigError
      }
    })()
    expect(error?.partial).toBe(partial)
    expect(Object.keys(error ?? {})).not.toContain('partial')
    expect(JSON.stringify(error)).not.toContain('hunter2')
  })

  it('never shows the password of a URL it refuses', () => {
    const env = createEnvReader({ A: 'redis://:s3cret@cache:port', B: 'http://user:s3cret@host:bad/x' })
    env.url('A')
    env.url('B')
    expect(() => env.done()).toThrow(
      'invalid configuration: A must be a URL (got "redis://***@cache:port"); B must be a URL (got "http://***@host:bad/x")',
    )
  })
})
