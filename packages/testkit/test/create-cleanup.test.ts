import { createServer, type Server } from 'node:http'
import { createCleanup } from '@pf/testkit'

const listening = async () => {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return server
}
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()))

describe('createCleanup', () => {
  it('undoes what a set-up started before it failed halfway, and nothing it never started', async () => {
    const cleanup = createCleanup()
    const failingStart = (): Promise<Server> => Promise.reject(new Error('the second server failed to start'))
    let first: Server | undefined
    let second: Server | undefined
    const setUp = async () => {
      first = cleanup.add(await listening(), close)
      second = cleanup.add(await failingStart(), close)
    }
    await expect(setUp()).rejects.toThrow('the second server failed to start')
    expect(first?.listening).toBe(true)
    await cleanup.run()
    expect(first?.listening).toBe(false)
    expect(second).toBeUndefined()
  })

  it('runs undos newest first, each even when an earlier one threw, then rethrows', async () => {
    const cleanup = createCleanup()
    const order: string[] = []
    cleanup.defer(() => order.push('oldest'))
    cleanup.defer(() => {
      order.push('middle')
      throw new Error('middle failed')
    })
    expect(cleanup.add('value', (value) => order.push(`newest ${value}`))).toBe('value')
    await expect(cleanup.run()).rejects.toThrow('middle failed')
    expect(order).toEqual(['newest value', 'middle', 'oldest'])
  })

  it('gathers several failures in one AggregateError, and forgets the undos once run', async () => {
    const cleanup = createCleanup()
    cleanup.defer(() => Promise.reject(new Error('a')))
    cleanup.defer(() => {
      throw new Error('b')
    })
    await expect(cleanup.run()).rejects.toMatchObject({ errors: [{ message: 'b' }, { message: 'a' }] })
    await expect(cleanup.run()).resolves.toBeUndefined()
  })

  it('registers its run with the hook it is given (afterAll, afterEach)', async () => {
    let registered: (() => Promise<void>) | undefined
    const cleanup = createCleanup((run) => (registered = run))
    let undone = 0
    cleanup.defer(() => (undone += 1))
    await registered?.()
    expect(undone).toBe(1)
  })
})
