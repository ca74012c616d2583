// What a test run skipped, and why: the reporter that ends `pnpm test` and the summary `.ci/run` prints read it.
// A suite that cannot run on this machine says why in its title, `(skipped: <reason>)`:
//   (missing.length ? describe.skip : describe)(`Redis Sentinel …${missing.length ? ` (skipped: ${…} not installed)` : ''}`, …)
const { relative } = require('node:path')

const REASON = /\s*\(skipped: ([^)]*)\)/

/**
 * The skipped tests of a run, one entry per suite and reason: `{ what, reason, tests }`. Reads Jest's `--json`
 * output (`assertionResults`) and a reporter's aggregated results (`testResults`) alike.
 */
function skippedTests(results, cwd = process.cwd()) {
  const groups = new Map()
  for (const file of results.testResults ?? []) {
    for (const test of file.assertionResults ?? file.testResults ?? []) {
      if (!['pending', 'skipped', 'todo'].includes(test.status)) continue
      const titles = [...(test.ancestorTitles ?? []), test.title]
      const at = titles.findIndex((title) => REASON.test(title))
      const reason =
        at >= 0 ? REASON.exec(titles[at])[1] : test.status === 'todo' ? 'a todo' : 'no reason given'
      const what =
        at >= 0
          ? titles
              .slice(0, at + 1)
              .join(' › ')
              .replace(REASON, '')
          : `${relative(cwd, file.testFilePath ?? file.name ?? '')}: ${titles.join(' › ')}`
      const key = `${what}\n${reason}`
      const group = groups.get(key) ?? { what, reason, tests: 0 }
      group.tests += 1
      groups.set(key, group)
    }
  }
  return [...groups.values()]
}

/** One line per skipped suite: `Redis Sentinel: … — 1 test skipped: redis-sentinel not installed`. */
const skippedLines = (results, cwd) =>
  skippedTests(results, cwd).map(
    ({ what, reason, tests }) => `  ${what} — ${tests} test${tests === 1 ? '' : 's'} skipped: ${reason}`,
  )

/** `.ci/run`'s closing lines: the counts, then what was skipped and why. */
function testSummary(results, cwd) {
  const skipped = (results.numPendingTests ?? 0) + (results.numTodoTests ?? 0)
  return [
    `tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped`,
    ...skippedLines(results, cwd),
  ].join('\n')
}

module.exports = { skippedTests, skippedLines, testSummary }

// `node scripts/skipped-tests.cjs results.json`: the summary of a `jest --json --outputFile results.json` run.
if (require.main === module) {
  const text = require('node:fs').readFileSync(process.argv[2], 'utf8')
  // Jest writes its results only when it finishes: an empty file means the run was cut short (the time-out).
  if (text.trim() === '') console.log('tests: no results (the run ended before Jest wrote them)')
  else console.log(testSummary(JSON.parse(text)))
}
