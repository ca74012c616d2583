import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'

// One instance for the whole package: each schema is compiled once, on first use.
export const ajv = new Ajv2020({ allErrors: true, strict: true, verbose: true })
addFormats(ajv)
