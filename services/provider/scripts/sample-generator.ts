// Synthetic, deterministic sample data: the provider's bundled sample and the benchmark's million companies.
// Every name here is made up from word lists; none is a real company or a real listed person.

export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const pick = <T>(random: () => number, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)] as T

const STEMS = [
  'Acme',
  'Aurora',
  'Baltic',
  'Borealis',
  'Cascade',
  'Cedar',
  'Cobalt',
  'Delta',
  'Ember',
  'Fjord',
  'Granite',
  'Harbor',
  'Helix',
  'Horizon',
  'Iris',
  'Juniper',
  'Keystone',
  'Lumen',
  'Meridian',
  'Nimbus',
  'Nordic',
  'Oak',
  'Onyx',
  'Orbit',
  'Pinnacle',
  'Quartz',
  'Riviera',
  'Sable',
  'Sierra',
  'Solstice',
  'Summit',
  'Tundra',
  'Umber',
  'Vertex',
  'Willow',
  'Zenith',
  'Société',
  'Müller',
  'Økonomi',
  'Castaño',
  'Żagiel',
  'Brücke',
]
const CORES = [
  'Logistics',
  'Holdings',
  'Foods',
  'Energy',
  'Capital',
  'Textiles',
  'Pharma',
  'Robotics',
  'Shipping',
  'Media',
  'Analytics',
  'Construction',
  'Mining',
  'Software',
  'Hotels',
  'Motors',
  'Insurance',
  'Trading',
  'Labs',
  'Studios',
]
const SUFFIXES: Record<string, readonly string[]> = {
  GB: ['Ltd', 'PLC', 'LLP'],
  US: ['Inc', 'LLC', 'Corp'],
  DE: ['GmbH', 'AG', 'KG'],
  FR: ['SA', 'SARL', 'SAS'],
  NL: ['BV', 'NV'],
  ES: ['SL', 'SA'],
  IT: ['SpA', 'Srl'],
  SE: ['AB'],
  JP: ['KK'],
  BR: ['Ltda'],
}
const CITIES: Record<string, readonly string[]> = {
  GB: ['London', 'Manchester'],
  US: ['New York', 'Los Angeles'],
  DE: ['Berlin', 'München'],
  FR: ['Paris', 'Lyon'],
  NL: ['Amsterdam'],
  ES: ['Madrid', 'Sevilla'],
  IT: ['Roma', 'Milano'],
  SE: ['Stockholm'],
  JP: ['Tokyo'],
  BR: ['São Paulo'],
}
const INDUSTRIES = [
  'Offices of Holding Companies',
  'National Commercial Banks',
  'Petroleum Refining',
  'Prepackaged Software',
  'Computer Integrated Systems Design',
  'Pharmaceutical Preparations',
  'Trucking, Except Local',
  'General Contractors-Residential Buildings',
  'Hotels and Motels',
  'Management Consulting Services',
  'Motor Vehicles and Passenger Car Bodies',
  'Deep Sea Foreign Transportation of Freight',
  'Life Insurance',
  'Grocery Stores',
  'Radio and Television Broadcasting',
  'Engineering Services',
]

export interface GeneratedCompany {
  id: string
  name: string
  country: string
  industry: string
  city: string
}

/** `count` companies, the same ones for the same seed. */
export function* generateCompanies(count: number, seed = 1): Generator<GeneratedCompany> {
  const random = seededRandom(seed)
  const countries = Object.keys(SUFFIXES)
  for (let i = 0; i < count; i += 1) {
    const country = pick(random, countries)
    const words = [pick(random, STEMS), random() < 0.5 ? pick(random, STEMS) : null, pick(random, CORES)]
    const name = [...words.filter(Boolean), pick(random, SUFFIXES[country] ?? ['Ltd'])].join(' ')
    yield {
      id: `C${String(i + 1).padStart(7, '0')}`,
      name,
      country,
      industry: pick(random, INDUSTRIES),
      city: pick(random, CITIES[country] ?? ['Capital']),
    }
  }
}

const GIVEN = [
  'Ivan',
  'Olga',
  'Ahmad',
  'Fatima',
  'Chen',
  'Mei',
  'Carlos',
  'Lucía',
  'Jean',
  'Amélie',
  'Kwame',
  'Ama',
  'Dmitri',
  'Yusuf',
  'Aiko',
  'Rafael',
]
const FAMILY = [
  'Petrovsky',
  'Haddad',
  'Zhao',
  'Montoya',
  'Lefèvre',
  'Mensah',
  'Karimov',
  'Tanaka',
  'Okonkwo',
  'Varga',
  'Nowak',
  'Al-Rashid',
  'Ibarra',
  'Sørensen',
]
const PROGRAMS = ['SAMPLE-A', 'SAMPLE-B', 'SAMPLE-CYBER', 'SAMPLE-NPWMD']
const SANCTION_COUNTRIES = ['RU', 'IR', 'KP', 'SY', 'VE', 'CU', 'BY', 'MM', 'AE', 'TR']

/** `count` made-up sanctioned parties (individuals, entities, vessels), with transliteration-style aliases. */
export function* generateSanctions(count: number, seed = 2): Generator<Record<string, unknown>> {
  const random = seededRandom(seed)
  for (let i = 0; i < count; i += 1) {
    const kind = random()
    const country = pick(random, SANCTION_COUNTRIES)
    const programs = [pick(random, PROGRAMS)]
    if (kind < 0.6) {
      const family = pick(random, FAMILY)
      const given = pick(random, GIVEN)
      const variant = family.replace(/sky$/, 'ski').replace(/ov$/, 'off').replace('-', ' ')
      yield {
        id: `S${i + 1}`,
        name: `${family.toUpperCase()}, ${given}`,
        type: 'individual',
        programs,
        aliases: variant !== family ? [`${given} ${variant}`] : [],
        countries: [country],
      }
    } else if (kind < 0.9) {
      const name =
        `${pick(random, STEMS)} ${pick(random, CORES)} ${pick(random, ['LLC', 'FZE', 'Ltd', 'JSC'])}`.toUpperCase()
      yield {
        id: `S${i + 1}`,
        name,
        type: 'entity',
        programs,
        aliases: [name.replace(/ (LLC|FZE|LTD|JSC)$/, '')],
        countries: [country],
      }
    } else {
      yield {
        id: `S${i + 1}`,
        name: `${pick(random, STEMS)} ${pick(random, ['STAR', 'PEARL', 'WIND'])}`.toUpperCase(),
        type: 'vessel',
        programs,
        aliases: [],
        countries: [country],
      }
    }
  }
}
