import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'

/**
 * For conformance tests: validates a real response body against the document's schema for that path, method
 * and status; returns the problems (empty when it conforms).
 */
export function createResponseValidator(document: Record<string, unknown>) {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats(ajv)
  ajv.addSchema(document, 'openapi')
  const pointer = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1')
  return (
    method: string,
    path: string,
    status: number,
    body: unknown,
    contentType = 'application/json',
  ): string[] => {
    const paths = document.paths as Record<
      string,
      Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>
    >
    const response = paths[path]?.[method]?.responses[String(status)]
    if (!response) return [`${method.toUpperCase()} ${path} ${status} is not documented`]
    if (!response.content)
      return body === undefined || body === '' ? [] : [`${status} has no documented body`]
    const ref = `openapi#/paths/${pointer(path)}/${method}/responses/${status}/content/${pointer(contentType)}/schema`
    const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref })
    return validate(body)
      ? []
      : (validate.errors ?? []).map((e) => `${e.instancePath || 'body'} ${e.message}`)
  }
}
