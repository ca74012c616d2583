// s3rver is an optional peer dependency: only this entry loads it, and only a consumer that installs it
// pays for its dependencies.
export { startS3Server } from './start-s3-server'
export type { S3ServerHandle, StartS3ServerOptions } from './start-s3-server'
