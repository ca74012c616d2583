// Shared Jest settings: every package and service runs its TypeScript through SWC, and resolves the
// workspace libraries to their sources so tests never depend on a stale build.
const path = require('node:path')

const root = __dirname
// A hang guard, not a budget (guide: count, don't time): five minutes, so that no test fails for being slow
// on a loaded 2-core machine while a hung one still ends well inside CI's 15 minutes. Jest reads it from the
// top-level config: the root one for `pnpm test`, a package's own when it runs alone.
const TEST_TIMEOUT_MS = 300_000
const libraries = ['signing', 'schemas', 'idp-clients', 'testkit', 'service-kit', 'provider-kit']

/** @param {string} dir the package or service folder */
module.exports = function preset(dir) {
  return {
    displayName: require(path.join(dir, 'package.json')).name,
    rootDir: dir,
    testEnvironment: 'node',
    testTimeout: TEST_TIMEOUT_MS,
    // RSA signing keys made ahead for the emulators and issuers (see the file).
    setupFiles: [path.join(root, 'scripts', 'jest', 'signing-key-pool.cjs')],
    testMatch: ['<rootDir>/test/**/*.test.ts', '<rootDir>/*.test.ts'],
    transform: {
      '^.+\\.ts$': [
        '@swc/jest',
        { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
      ],
    },
    moduleNameMapper: Object.fromEntries(
      libraries.flatMap((name) => [
        [`^@pf/${name}$`, path.join(root, 'packages', name, 'src', 'index.ts')],
        // Subpath exports (`@pf/testkit/emulators`) map to `src/<subpath>/index.ts`.
        [`^@pf/${name}/([a-z0-9-]+)$`, path.join(root, 'packages', name, 'src', '$1', 'index.ts')],
      ]),
    ),
  }
}
module.exports.TEST_TIMEOUT_MS = TEST_TIMEOUT_MS
