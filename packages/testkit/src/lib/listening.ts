import type { Server } from 'node:net'

/**
 * Resolves once `server` listens; rejects with its listen error (`EADDRINUSE`, with `code`, `address` and `port`)
 * instead of leaving an `'error'` event nobody listens to, which ends the process with a stack trace.
 *
 * @example
 * await listening(app.listen(port, '127.0.0.1'))
 */
export function listening<T extends Server>(server: T): Promise<T> {
  return new Promise((resolve, reject) => {
    if (server.listening) return resolve(server)
    const onError = (error: Error) => {
      server.removeListener('listening', onListening)
      reject(error)
    }
    const onListening = () => {
      server.removeListener('error', onError)
      resolve(server)
    }
    server.once('error', onError).once('listening', onListening)
  })
}
