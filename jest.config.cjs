// Jest's workers inherit this: the AWS SDK's notice that its 2027 releases need Node 22 (README, "Set up and
// run") would otherwise print once per test file that loads the SDK on Node 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'
const { availableParallelism } = require('node:os')

/** @type {import('jest').Config} */
module.exports = {
  projects: ['<rootDir>/packages/*', '<rootDir>/services/*', '<rootDir>/test'],
  // Service skeletons have no tests until their issue lands.
  passWithNoTests: true,
  // Jest's default (one core less than the machine) runs one file at a time on a 2-core machine, while most
  // files spend their time waiting on the processes, Redis and PostgreSQL they start: two at a time at least
  // keeps the whole suite inside CI's 15 minutes. `--maxWorkers` on the command line still wins.
  maxWorkers: Math.max(2, availableParallelism()),
  // A hang guard, not a budget (guide: count, don't time): generous enough for a busy 2-core machine. The same
  // in jest.preset.cjs, for one package run alone.
  testTimeout: require('./jest.preset.cjs').TEST_TIMEOUT_MS,
  // Jest's summary counts skipped tests; this one names them and says why (a suite's "(skipped: …)" title).
  reporters: ['default', '<rootDir>/scripts/skipped-tests-reporter.cjs'],
}
