// A Jest reporter (jest.config.cjs) that ends a run with what it skipped and why, after Jest's own summary,
// which only counts them.
const { skippedLines } = require('./skipped-tests.cjs')

module.exports = class SkippedTestsReporter {
  onRunComplete(_contexts, results) {
    const lines = skippedLines(results)
    if (lines.length > 0) process.stderr.write(`Skipped, and why:\n${lines.join('\n')}\n`)
  }
}
