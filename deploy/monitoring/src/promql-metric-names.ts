// PromQL words that are not metric names: aggregation and set operators, their modifiers, and literals.
const KEYWORDS = new Set([
  ...[
    'and',
    'or',
    'unless',
    'by',
    'without',
    'on',
    'ignoring',
    'group_left',
    'group_right',
    'bool',
    'offset',
  ],
  ...['inf', 'nan'],
])

/**
 * The metric names an expression reads, by a small tokenizer rather than a parser: strings, label matchers
 * `{…}`, ranges `[…]` and the label lists of `by`/`without`/`on`/`ignoring`/`group_*` are removed; what is
 * left that looks like an identifier, is not a keyword and is not called like a function is a metric name.
 *
 * @example promqlMetricNames('sum by (le) (rate(x_bucket{a="b"}[5m]))') // ['x_bucket']
 */
export function promqlMetricNames(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
  const names = new Set<string>()
  for (const match of stripped.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*/g)) {
    const word = match[0]
    const after = stripped.slice(match.index + word.length).trimStart()
    if (KEYWORDS.has(word.toLowerCase()) || after.startsWith('(')) continue
    // A number's exponent (1e3) starts like a word: skip words glued to a digit before them.
    if (match.index > 0 && /[0-9.]/.test(stripped[match.index - 1]!)) continue
    names.add(word)
  }
  return [...names]
}

/**
 * The series names a Prometheus text exposition declares (`# TYPE` lines): a histogram's `_bucket`, `_sum` and
 * `_count`, a summary's `_sum` and `_count` and the name itself, whether or not a sample was recorded yet.
 */
export function exposedMetricNames(exposition: string): Set<string> {
  const names = new Set<string>()
  for (const [, name, type] of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name!)
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name! + suffix)
    if (type === 'summary') for (const suffix of ['_sum', '_count']) names.add(name! + suffix)
  }
  return names
}
