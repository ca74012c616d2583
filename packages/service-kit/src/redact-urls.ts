import { redactUrl } from './redact-url'

/**
 * An address inside a text: a scheme, `://`, up to a space, a quote or an angle bracket (a JSON string ends
 * it), and not the punctuation of the sentence around it (`(http://…)`, `at http://….`).
 */
const ADDRESS = /[a-z][a-z0-9+.-]*:\/\/(?:[^\s"'`<>\\]*[^\s"'`<>\\).,;:!?])?/gi

/**
 * Every address in a text (a log line, an error from a library, a doctor line) as `redactUrl` shows it: the
 * last defence for what was not redacted where it was written, such as fetch's "Request cannot be constructed
 * from a URL that includes credentials: …".
 *
 * @example
 * redactUrls('GET http://u:pw@host/x failed') // 'GET http://***@host/x failed'
 */
export function redactUrls(text: string): string {
  return text.includes('://') ? text.replace(ADDRESS, redactUrl) : text
}
