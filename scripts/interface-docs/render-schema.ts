// A JSON Schema (2020-12, as @pf/schemas and the OpenAPI documents write them) as a Markdown table: one row per
// field, nested objects flattened (`delivery.mechanism`), references linked to their own table.
export type Schema = Record<string, unknown>

/** Text for a table cell: pipes escaped, and `<…>` outside code kept from reading as HTML. */
export const cell = (text: string) =>
  text
    .split('`')
    .map((part, index) => (index % 2 === 0 ? part.replace(/</g, '&lt;') : part))
    .join('`')
    .replace(/\|/g, '\\|')
    .replace(/\n/g, ' ')
const code = (value: unknown) => `\`${JSON.stringify(value)}\``
const asSchemas = (value: unknown) => (Array.isArray(value) ? (value as Schema[]) : [])
const isNull = (schema: Schema) => schema.type === 'null'

/** `#/components/schemas/QueryEnvelope` → a link to its table in the same document. */
export const refLink = (ref: string) => {
  const name = ref.split('/').pop() as string
  return `[${name}](#${name.toLowerCase()})`
}

/** `1-256 characters`, `at most 100 characters`, `non-empty`: a value's bounds, or nothing. */
function bounds(min: unknown, max: unknown, unit: string): string[] {
  if (min === undefined && max === undefined) return []
  if (min !== undefined && max !== undefined) return [`${String(min)}-${String(max)}${unit}`]
  if (max !== undefined) return [`at most ${String(max)}${unit}`]
  return unit !== '' && min === 1 ? ['non-empty'] : [`at least ${String(min)}${unit}`]
}

const described = (type: string, notes: string[]) =>
  notes.length > 0 ? `${type} (${notes.join(', ')})` : type

/** What a value may be, bounds included: `string (1-256 characters, pattern \S)`, `integer (0-100) or null`. */
export function typeOf(schema: Schema): string {
  if (typeof schema.$ref === 'string') return refLink(schema.$ref)
  if ('const' in schema) return code(schema.const)
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map(code).join(', ')}`
  const union = asSchemas(schema.anyOf ?? schema.oneOf)
  if (union.length > 0) {
    const values = union.filter((branch) => !isNull(branch))
    const nullable = values.length < union.length ? ' or null' : ''
    if (values.length > 1 && values.every((branch) => 'const' in branch))
      return `one of ${values.map((branch) => code(branch.const)).join(', ')}${nullable}`
    return `${values.map(typeOf).join(' or ')}${nullable}`
  }
  switch (schema.type) {
    case 'string':
      return described(schema.format ? `string (${String(schema.format)})` : 'string', [
        ...bounds(schema.minLength, schema.maxLength, ' characters'),
        ...(schema.pattern ? [`pattern \`${String(schema.pattern)}\``] : []),
      ]).replace(/\) \(/, ', ')
    case 'integer':
    case 'number':
      return described(String(schema.type), bounds(schema.minimum, schema.maximum, ''))
    case 'boolean':
      return 'boolean'
    case 'array':
      return `${described('array', bounds(schema.minItems, schema.maxItems, ' items'))} of ${typeOf((schema.items as Schema | undefined) ?? {})}`
    case 'object':
      return schema.properties ? 'object' : 'object, any keys'
    default:
      return 'any'
  }
}

export interface SchemaRow {
  field: string
  type: string
  required: boolean
  notes: string
}

/** The object a schema describes, when it is one (or one or null). */
function objectOf(schema: Schema): Schema | undefined {
  if (schema.type === 'object' && schema.properties) return schema
  const branches = asSchemas(schema.anyOf ?? schema.oneOf).filter((branch) => !isNull(branch))
  return branches.length === 1 ? objectOf(branches[0] as Schema) : undefined
}

/** One row per field, the fields of nested objects under their parent's name. */
export function schemaRows(schema: Schema, prefix = ''): SchemaRow[] {
  const object = objectOf(schema)
  if (!object) return []
  const required = new Set(asSchemas(object.required).map(String))
  return Object.entries(object.properties as Record<string, Schema>).flatMap(([name, property]) => {
    const nested = objectOf(property)
    // An array of objects: its items' fields as `lists[].name`.
    const items =
      property.type === 'array' ? objectOf((property.items as Schema | undefined) ?? {}) : undefined
    return [
      {
        field: `${prefix}${name}`,
        type: typeOf(property),
        required: required.has(name),
        notes: typeof property.description === 'string' ? property.description : '',
      },
      ...(nested ? schemaRows(nested, `${prefix}${name}.`) : []),
      ...(items ? schemaRows(items, `${prefix}${name}[].`) : []),
    ]
  })
}

/** The schema's fields as a Markdown table, with a line for what the table cannot say (other keys). */
export function schemaTable(schema: Schema): string {
  const rows = schemaRows(schema)
  if (rows.length === 0) return typeOf(schema)
  const object = objectOf(schema) as Schema
  const others =
    object.additionalProperties === false
      ? 'No other field is allowed.'
      : 'Other fields are accepted and ignored.'
  return [
    '| field | type | required | notes |',
    '| --- | --- | --- | --- |',
    ...rows.map(
      (row) => `| \`${row.field}\` | ${cell(row.type)} | ${row.required ? 'yes' : ''} | ${cell(row.notes)} |`,
    ),
    '',
    others,
  ].join('\n')
}
