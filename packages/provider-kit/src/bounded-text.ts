/**
 * Most characters of an outside text a log line quotes: a store's error can quote a query's words whole
 * (PostgreSQL's "word is too long in tsquery: …" quoted 4,600 bytes of one word), and a log line is no place
 * for a caller's kilobytes.
 */
export const MAX_LOGGED_CHARS = 300

/** `text` cut to `max` characters (never inside a surrogate pair), saying how many more there were. */
export function boundedText(text: string, max = MAX_LOGGED_CHARS): string {
  if (text.length <= max) return text
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max
  return `${text.slice(0, end)}… (${text.length - end} more characters)`
}
