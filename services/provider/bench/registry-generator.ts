import { seededRandom } from '../scripts/sample-generator'

// Syllables of European company and family names; words of two to four of them give a vocabulary of hundreds
// of thousands of distinct words, as a national register has (surnames, places, coined brand names).
const SYLLABLES = (
  'al an ar ba be ber bo bra ca car chi co da de del di do el en er fa fe fer fi fra ga ge gi go gra ha he ' +
  'hol in ka ke ki ko kra la le li lo lu ma me mi mo mu na ne ni no nor o pa pe pi po pra ra re ri ro ru sa ' +
  'sch se si so sta ste stu ta te ti to tra tu va ve vi vo wa we wi zan zo'
).split(' ')
const COMMON = (
  'international holding holdings group services solutions systems trading consulting management global ' +
  'capital partners industries technologies logistics construction engineering invest properties energy ' +
  'medical digital media foods transport finance real estate design software marketing retail europe'
).split(' ')
const SUFFIXES: Record<string, string[]> = {
  DE: ['GmbH', 'AG', 'GmbH & Co. KG', 'UG'],
  GB: ['Ltd', 'Limited', 'PLC', 'LLP'],
  US: ['Inc.', 'LLC', 'Corp.', 'Co.'],
  FR: ['SA', 'SAS', 'SARL'],
  ES: ['SL', 'SA'],
  IT: ['S.p.A.', 'S.r.l.'],
  NL: ['B.V.', 'N.V.'],
  PL: ['Sp. z o.o.', 'S.A.'],
  SE: ['AB'],
  DK: ['ApS', 'A/S'],
}
const COUNTRIES = Object.keys(SUFFIXES)
const INDUSTRIES = (
  'Software Publishers;Commercial Banks;Hotels and Motels;Petroleum Refineries;Insurance Agencies;' +
  'General Freight Trucking;Architectural Services;Dental Offices;Real Estate Agents;Restaurants;' +
  'Management Consulting;Legal Services;Engineering Services;Grocery Stores;Pharmacies;Car Dealers;' +
  'Printing;Machine Shops;Advertising Agencies;Freight Forwarding'
).split(';')

/** A generated register entry, with the fields the import reads from JSON Lines. */
export interface RegistryCompany {
  id: string
  name: string
  country: string
  industry: string
  city: string
}

/** A vocabulary of `size` distinct coined words (2-4 syllables, capitalised), reproducible from `seed`. */
function vocabulary(size: number, seed: number): string[] {
  const random = seededRandom(seed)
  const words = new Set<string>()
  while (words.size < size) {
    const syllables = 2 + Math.floor(random() * 3)
    let word = ''
    for (let i = 0; i < syllables; i += 1) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)]
    words.add(word[0]!.toUpperCase() + word.slice(1))
  }
  return [...words]
}

/**
 * Companies with realistic name shapes over a vocabulary as large as a real register's (300,000 coined words,
 * drawn with a Zipf-like skew so a few are common and most are rare, plus the common business words): "Kolber
 * Transport GmbH", "Maresti & Doniva SARL", "Tra-Vikon Holding B.V.", "Selbra International Ltd".
 */
export function* generateRegistry(count: number, seed = 7): Generator<RegistryCompany> {
  const random = seededRandom(seed)
  const words = vocabulary(300_000, seed + 1)
  // Zipf-like: index = n * u^3 favours the first words without making any of them too frequent.
  const word = () => words[Math.floor(words.length * random() ** 3)]!
  const common = () => COMMON[Math.floor(random() * COMMON.length)]!
  const title = (w: string) => w[0]!.toUpperCase() + w.slice(1)
  for (let i = 0; i < count; i += 1) {
    const country = COUNTRIES[Math.floor(random() * COUNTRIES.length)]!
    const suffixes = SUFFIXES[country]!
    const suffix = suffixes[Math.floor(random() * suffixes.length)]!
    const shape = random()
    const base =
      shape < 0.35
        ? `${word()} ${title(common())}`
        : shape < 0.55
          ? `${word()} & ${word()}`
          : shape < 0.7
            ? `${word()}-${word()} ${title(common())}`
            : shape < 0.85
              ? `${word()} ${word()} ${title(common())}`
              : word()
    yield {
      id: `R${i + 1}`,
      name: `${base} ${suffix}`,
      country,
      industry: INDUSTRIES[Math.floor(random() * INDUSTRIES.length)]!,
      city: word(),
    }
  }
}
