import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createCleanup } from '@pf/testkit'

// The test summary names what it skipped and why: the reporter that ends `pnpm test` (jest.config.cjs) and the
// closing lines of `.ci/run` (`node scripts/skipped-tests.cjs results.json`), run on a real suite that skips.
const root = join(__dirname, '..')
const cleanup = createCleanup(afterAll)

it('a run without redis-sentinel names the skipped Sentinel and Cluster suites and the missing commands', () => {
  const dir = cleanup.add(mkdtempSync(join(tmpdir(), 'pf-skipped-')), (path) =>
    rmSync(path, { recursive: true, force: true }),
  )
  // A PATH with node alone: redis-server, redis-sentinel and redis-cli are not installed there.
  symlinkSync(process.execPath, join(dir, 'node'))
  const results = join(dir, 'results.json')
  const env = { PATH: dir, HOME: process.env.HOME ?? dir }
  const jest = spawnSync(
    process.execPath,
    [
      require.resolve('jest/bin/jest'),
      'services/webhook-receiver/test/redis-ha.test.ts',
      '--json',
      `--outputFile=${results}`,
    ],
    { cwd: root, env, encoding: 'utf8' },
  )
  expect(jest.status).toBe(0)
  const missing = 'redis-server, redis-sentinel, redis-cli not installed'
  expect(jest.stderr).toContain(
    [
      'Skipped, and why:',
      `  Redis Sentinel: the master fails under load — 1 test skipped: ${missing}`,
      `  Redis Cluster: the master fails under load — 1 test skipped: ${missing}`,
    ].join('\n'),
  )
  expect(jest.stderr).toMatch(/a topology that cannot confirm writes .* — 2 tests skipped: redis-server/)

  const summary = spawnSync(process.execPath, ['scripts/skipped-tests.cjs', results], {
    cwd: root,
    env,
    encoding: 'utf8',
  })
  expect(summary.stdout.split('\n').slice(0, 3)).toEqual([
    'tests: 0 passed, 0 failed, 4 skipped',
    `  Redis Sentinel: the master fails under load — 1 test skipped: ${missing}`,
    `  Redis Cluster: the master fails under load — 1 test skipped: ${missing}`,
  ])
})
