// s3rver ships no types; this declares the part of its API that start-s3-server uses.
declare module 's3rver' {
  import type { Server } from 'node:http'

  interface S3rverOptions {
    address?: string
    port?: number
    silent?: boolean
    directory: string
    resetOnClose?: boolean
    configureBuckets?: { name: string; configs?: Buffer[] }[]
  }
  export default class S3rver {
    constructor(options: S3rverOptions)
    run(): Promise<{ address: string; port: number }>
    /** What run() does before it listens: creates `configureBuckets`. */
    configureBuckets(): Promise<void>
    /** An http.Server serving S3, listening as `server.listen(...args)`; the last argument must be a callback. */
    listen(port: number, host: string, callback: () => void): Server
    /** The server close() closes: set by run(), or by whoever listens in its place. */
    httpServer?: Server
    close(): Promise<void>
  }
}
