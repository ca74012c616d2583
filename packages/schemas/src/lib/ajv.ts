import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { parseDateTime } from '../parse-date-time'

// One instance for the whole package: each schema is compiled once, on first use.
export const ajv = new Ajv2020({ allErrors: true, strict: true, verbose: true })
addFormats(ajv)
// `date-time` is checked by `parseDateTime`, which accepts what ajv-formats' full `date-time` accepts (a test holds
// the two to the same answers) and reads each digit where the pattern put it: ajv-formats converts each field
// with `+string`, a call into V8's runtime, most of what validating an event cost the receiver.
ajv.addFormat('date-time', {
  type: 'string',
  validate: (value: string) => parseDateTime(value) !== undefined,
})
