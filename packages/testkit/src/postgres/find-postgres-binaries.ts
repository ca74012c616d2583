import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

/** Where Debian's `postgresql` package puts its server binaries (not on the PATH). */
export const DEBIAN_POSTGRES_ROOT = '/usr/lib/postgresql'

/**
 * The newest `/usr/lib/postgresql/<version>/bin` that holds `initdb` and `postgres`, or undefined. The
 * version is found, not assumed: Debian 12 ships 15, Debian 13 ships 17.
 */
export function findPostgresBinaries(root = DEBIAN_POSTGRES_ROOT): string | undefined {
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a))
  for (const version of versions) {
    const bin = join(root, version, 'bin')
    if (existsSync(join(bin, 'postgres')) && existsSync(join(bin, 'initdb'))) return bin
  }
  return undefined
}
