import { join } from 'node:path'
import { startServiceProcess } from '@pf/testkit'

const entry = join(__dirname, 'fixtures', 'env-service.cjs')

describe('startServiceProcess', () => {
  it('runs the service with this Node by default', async () => {
    const service = await startServiceProcess({ entry, readyMessage: 'ready' })
    expect(service.readyLine.runUnder).toBeNull()
    expect(await service.stop()).toBe(0)
  })

  it('runs this Node under the runUnder command line (a bench counting a service under valgrind)', async () => {
    // `env NAME=value node …`: the command is given this Node, the entry and its arguments, as valgrind would be.
    const service = await startServiceProcess({
      entry,
      readyMessage: 'ready',
      env: { PATH: process.env.PATH },
      runUnder: ['env', 'PF_RUN_UNDER=yes'],
    })
    expect(service.readyLine.runUnder).toBe('yes')
    expect(await service.stop()).toBe(0)
  })
})
