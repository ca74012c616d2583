import { spawnSync } from 'node:child_process'

/** The uid and gid of the `postgres` system user (Debian's package creates it), or undefined. */
export function postgresUser(): { uid: number; gid: number } | undefined {
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' })
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' })
  if (uid.status !== 0 || gid.status !== 0) return undefined
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) }
}

/**
 * The command line that runs a PostgreSQL binary so that it ends with this process: `initdb` and `postgres`
 * refuse to run as root, so as root they run as the `postgres` user; `setpriv` (util-linux) both drops the
 * privileges and sets the parent-death signal (SIGKILL: a test cluster keeps nothing worth a clean shutdown).
 * Not root: the binary runs as this user, still under `setpriv --pdeathsig`.
 */
export function commandAsPostgres(binary: string, args: string[]): [string, string[]] {
  const asRoot = process.getuid?.() === 0
  const drop = asRoot ? ['--reuid', 'postgres', '--regid', 'postgres', '--init-groups'] : []
  return ['setpriv', [...drop, '--pdeathsig', 'SIGKILL', '--', binary, ...args]]
}
