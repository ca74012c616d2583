import { detectScript } from '../src/matching/detect-script'

describe('detectScript', () => {
  it('counts the ASCII letters, and only them, as Latin (as \\p{Script=Latin} does)', () => {
    for (let unit = 0; unit < 0x80; unit += 1) {
      const char = String.fromCharCode(unit)
      expect([char, detectScript(char)]).toEqual([char, /\p{L}/u.test(char) ? 'Latn' : 'Zyyy'])
    }
  })

  it.each([
    ['Владимир ПЛОТНИКОВ', 'Cyrl'],
    ['Vladimir ПЛОТНИКОВ', 'Cyrl'],
    ['AL-ИВАН', 'Cyrl'],
    ['ALIX ИВ', 'Latn'],
    ['AB ИВ', 'Latn'],
    ['ИВ AB', 'Cyrl'],
    ['محمد علي', 'Arab'],
    ['Société Générale', 'Latn'],
    ['金正恩', 'Hani'],
    ['김정은 Kim', 'Hang'],
    ['123 - 456', 'Zyyy'],
  ])('%s is written in %s (most letters; a tie goes to the first seen)', (name, script) => {
    expect(detectScript(name)).toBe(script)
  })
})
