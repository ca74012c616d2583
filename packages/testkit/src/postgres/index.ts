export { startPostgres } from './start-postgres'
export type { PostgresHandle, StartPostgresOptions } from './start-postgres'
export { findPostgresBinaries } from './find-postgres-binaries'
