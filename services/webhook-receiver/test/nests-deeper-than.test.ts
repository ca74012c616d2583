import { nestsDeeperThan } from '../src/receiver/nests-deeper-than'

const bytes = (text: string) => Buffer.from(text)
const nested = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`

describe('nestsDeeperThan (the envelope bound, before any parsing)', () => {
  it('tells 3 levels from 2 and 3, in a Buffer or a plain Uint8Array', () => {
    expect(nestsDeeperThan(bytes('{"a":[1,{"b":2}]}'), 2)).toBe(true)
    expect(nestsDeeperThan(bytes('{"a":[1,{"b":2}]}'), 3)).toBe(false)
    expect(nestsDeeperThan(new Uint8Array(bytes(`{"a":${nested(3)}}`)), 3)).toBe(true)
  })

  it('walks a text with more openings than the bound: many shallow siblings pass, one deep branch does not', () => {
    const siblings = `[${Array.from({ length: 40 }, () => '{"a":[]}').join(',')}]`
    expect(nestsDeeperThan(bytes(siblings), 3)).toBe(false)
    expect(nestsDeeperThan(bytes(siblings.replace('[]', nested(3))), 3)).toBe(true)
  })

  it('skips brackets inside strings, escaped quotes included', () => {
    const text = `{"a":"${'[{'.repeat(40)}\\"${'[{'.repeat(40)}","b":[1]}`
    expect(nestsDeeperThan(bytes(text), 2)).toBe(false)
    expect(nestsDeeperThan(bytes(text), 1)).toBe(true)
  })
})
