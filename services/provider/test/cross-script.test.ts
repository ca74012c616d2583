import { createReadStream } from 'node:fs'
import { isDeepStrictEqual } from 'node:util'
import { parseUnXml } from '../src/datasets/load-un-xml'
import type { SanctionEntry } from '../src/datasets/records'
import { consonantSkeleton } from '../src/matching/name-forms'
import { SanctionsIndex, type SanctionsQuery } from '../src/screening/sanctions-index'
import { referenceData } from './support-data'
import { SanctionsScan } from './support-sanctions-scan'
import { scriptRecall } from './support-script-recall'

const entry = (id: string, name: string, ...aliases: string[]): SanctionEntry => ({
  id,
  name,
  aliases,
  type: 'individual',
  programs: [],
  countries: [],
  remarks: null,
  source: 'test',
})

// Small hand-made sets: each name as lists write it in Latin, and in its own script.
const PAIRS: [script: string, latin: string, original: string][] = [
  ['Cyrillic', 'Vladimir Putin', 'Владимир Путин'],
  ['Cyrillic', 'Yuriy Shcherbakov', 'Юрий Щербаков'],
  ['Arabic', 'Saddam Hussein al-Tikriti', 'صدام حسين التكريتي'],
  ['Arabic', 'Muhammad Abdallah', 'محمد عبد الله'],
  ['Persian', 'Ali Khamenei', 'علی خامنه‌ای'],
  ['Chinese', 'Xi Jinping', '习近平'],
  ['Chinese', 'Mao Zedong', '毛泽东'],
  ['Korean', 'Kim Jong Un', '김정은'],
  ['Korean', 'Ri Yong Ho', '리영호'],
  ['Greek', 'Sokratis Papadopoulos', 'Σωκράτης Παπαδόπουλος'],
  ['Hebrew', 'Binyamin Netanyahu', 'בנימין נתניהו'],
  ['Georgian', 'Mikheil Saakashvili', 'მიხეილ სააკაშვილი'],
  ['Armenian', 'Serzh Sargsyan', 'Սերժ Սարգսյան'],
]
const others = [
  entry('x1', 'Vladimir Popov'),
  entry('x2', 'Saddam Khalil'),
  entry('x3', 'Kim Il Sung'),
  entry('x4', 'Xi Wang'),
  entry('x5', 'Mikheil Kavelashvili'),
]
const latinList = SanctionsIndex.build([...PAIRS.map(([, latin], i) => entry(`p${i}`, latin)), ...others])
const originalList = SanctionsIndex.build([
  ...PAIRS.map(([, , original], i) => entry(`p${i}`, original)),
  ...others,
])
const top = (index: SanctionsIndex, name: string) => index.search({ name, threshold: 70, limit: 1 })[0]

describe('names across scripts: each script folds to Latin, both forms indexed (issue 25)', () => {
  it.each(PAIRS.map((pair, i) => [...pair, i] as const))(
    '%s: "%s" and "%s" find each other',
    (_script, latin, original, i) => {
      expect(top(latinList, original)).toMatchObject({ id: `p${i}`, matchedName: latin })
      expect(top(originalList, latin)).toMatchObject({ id: `p${i}`, matchedName: original })
      expect(top(latinList, original)?.explanation.matchedForm).toBe('transliterated')
    },
  )

  it('says which form matched: the original one when both names are written alike', () => {
    expect(top(originalList, 'Владимир Путин')).toMatchObject({
      score: 100,
      explanation: { matchedForm: 'original' },
    })
    expect(top(latinList, 'Vladimir Putin')?.explanation.matchedForm).toBe('original')
  })

  it('compares Arabic without vowels by consonant skeletons, and says so', () => {
    expect(['MUHAMMAD', 'MOHAMMED', 'mhmd'].map(consonantSkeleton)).toEqual(['MHMD', 'MHMD', 'MHMD'])
    expect(['HUSSEIN', 'HUSAYN', 'hsyn'].map(consonantSkeleton)).toEqual(['HSN', 'HSN', 'HSN'])
    expect(consonantSkeleton('AZIZ')).toBe('ZZ')
    const hit = top(SanctionsIndex.build([entry('m', 'MOHAMMED HUSAYN')]), 'محمد حسين')
    expect(hit).toMatchObject({ score: 100, explanation: { comparedAs: 'consonant-skeleton' } })
  })

  it('matches Korean names however they are romanised (Kim/Gim, Jong/Jeong, Un/Eun)', () => {
    const korean = SanctionsIndex.build([entry('k1', 'GIM Jeong-eun'), entry('k2', 'KIM Jong Un')])
    const found = korean.search({ name: '김정은', threshold: 90, limit: 5 })
    expect(found.map((hit) => [hit.id, hit.score]).sort()).toEqual([
      ['k1', 100],
      ['k2', 100],
    ])
  })

  // From the UN list's DPRK records (data/reference/un-consolidated): a name and an alias of the same record, or
  // the usual spellings of its family name (Lee/Yi/Rhee/Ri, Park/Pak/Bak, Choi/Choe, Jung/Jeong/Chung).
  const KOREAN_SPELLINGS: [listed: string, query: string][] = [
    ['KIM Jong Un', 'Gim Jeong-eun'],
    ['KIM Jong Un', 'Kim Jong-un'],
    ['KIM Jong Un', 'Kim Jeong Eun'],
    ['RI U’N SO’NG', 'Ri Eun Song'],
    ['RI U’N SO’NG', 'Lee Eun Song'],
    ['RI U’N SO’NG', 'Yi Eun Seong'],
    ['RI U’N SO’NG', 'Rhee Un Song'],
    ['PAK CHUN IL', 'Park Chun Il'],
    ['PAK CHUN IL', 'Bak Chun Il'],
    ["CH'OE SO’K MIN", 'Choi Seok Min'],
    ['KIM JUNG JONG', 'Kim Chung Chong'],
    ['KIM JUNG JONG', 'Kim Jeong Jeong'],
    ['KANG MUN KIL', 'Gang Mun Gil'],
    ['JO YONG CHOL', 'Cho Yong Chol'],
    ['YUN HO-JIN', 'Yoon Ho Chin'],
    ['SIN MIN', 'Shin Min'],
    ['MIN BYONG CHOL', 'Min Pyo’ng-ch’o’l'],
    ['KIM YONG CHOL', 'Kim Young-Cheol'],
    ['HYON KWANG IL', 'Hyon Gwang Il'],
    ['HAN JANG SU', 'Chang-Su Han'],
    ['KOREA PYONGYANG TRADING', 'Korea Pyeongyang Trading'],
  ]
  const koreanList = SanctionsIndex.build(KOREAN_SPELLINGS.map(([listed], i) => entry(`k${i}`, listed)))
  const koreanScan = SanctionsScan.build(koreanList.entries)

  it.each(KOREAN_SPELLINGS.map((pair, i) => [...pair, i] as const))(
    'matches Korean romanisations of one name at 100: "%s" for "%s"',
    (listed, query, i) => {
      const found = koreanList.search({ name: query, threshold: 85, limit: 20 })
      const hit = found.find((match) => match.matchedName === listed)
      expect(hit).toMatchObject({ score: 100, explanation: { comparedAs: 'korean-romanisation' } })
      expect(found.filter((match) => match.score === 100).map((match) => match.id)).toContain(`k${i}`)
      expect(found).toEqual(koreanScan.search({ name: query, threshold: 85, limit: 20 }))
    },
  )

  it('keeps Korean names apart that differ in more than their romanisation', () => {
    const found = koreanList.search({ name: 'Pak Jong Un', threshold: 85, limit: 20 })
    expect(found.find((match) => match.matchedName === 'KIM Jong Un')?.score ?? 0).toBeLessThan(100)
    expect(koreanList.search({ name: 'Vladimir Putin', threshold: 85, limit: 20 })).toEqual([])
  })

  it('matches Chinese pinyin with and without spaces between syllables', () => {
    const chinese = SanctionsIndex.build([entry('c1', 'XI Jin Ping'), entry('c2', 'XI Jinping')])
    const found = chinese.search({ name: '习近平', threshold: 90, limit: 5 })
    expect(found.map((hit) => [hit.id, hit.score]).sort()).toEqual([
      ['c1', 100],
      ['c2', 100],
    ])
  })

  it('keeps Latin screening of Latin lists as it was: one form, compared as written', () => {
    expect(top(latinList, 'Vladimr Putin')).toMatchObject({
      id: 'p0',
      explanation: { matchedForm: 'original' },
    })
    expect(top(latinList, 'Vladimr Putin')?.explanation.comparedAs).toBeUndefined()
  })
})

describe('the UN list across scripts (NAME_ORIGINAL_SCRIPT)', () => {
  const file = referenceData('un-consolidated', 'consolidated.xml')

  it('finds at least 80 % of its Arabic and Cyrillic records as the top hit, each way (pnpm bench prints all)', async () => {
    const shares = Object.fromEntries(
      (await scriptRecall(file)).map((row) => [
        row.script,
        [row.originalToLatin / row.records, row.latinToOriginal / row.records],
      ]),
    )
    for (const script of ['Arab', 'Cyrl']) {
      expect(shares[script]?.[0]).toBeGreaterThanOrEqual(0.8)
      expect(shares[script]?.[1]).toBeGreaterThanOrEqual(0.8)
    }
  })

  it('returns exactly what the full scan returns for queries in every script the list holds', async () => {
    const { entries } = await parseUnXml(createReadStream(file), file)
    const index = SanctionsIndex.build(entries)
    const scan = SanctionsScan.build(entries)
    const names = entries.flatMap((e) => e.names ?? []).filter((_, i) => i % 37 === 0)
    const queries: SanctionsQuery[] = names.flatMap(({ name }) => [
      { name, threshold: 70, limit: 5000 },
      { name, threshold: 85, limit: 3 },
    ])
    queries.push(
      { name: 'Saddam Husain', threshold: 0, limit: 20 },
      { name: 'صدام', threshold: 0, limit: 20 },
    )
    for (const query of queries) {
      const [fromIndex, fromScan] = [index.search(query), scan.search(query)]
      // Node's strict comparison first, much cheaper than Jest's on thousands of hits: where it finds them
      // unequal, toEqual decides (it also ignores undefined fields) and shows the difference.
      if (!isDeepStrictEqual(fromIndex, fromScan))
        expect([query.name, fromIndex]).toEqual([query.name, fromScan])
    }
  })
})
