import { execFileSync } from 'node:child_process'
import { existsSync, openSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const git = (root: string, ...args: string[]) =>
  execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' }).trim()

/**
 * The commit on the first-parent line of `head` just before `path` first appeared on it: the parent of the
 * first-parent commit (a merge, usually) that brought in the oldest commit touching `path`.
 */
export function commitBefore(root: string, path: string, head = 'HEAD'): string {
  const touching = git(root, 'log', '--format=%H', head, '--', path).split('\n').filter(Boolean)
  const oldest = touching.at(-1)
  if (!oldest) throw new Error(`no commit of ${head} touches ${path}`)
  for (const commit of git(root, 'rev-list', '--first-parent', '--reverse', head).split('\n'))
    if (isAncestor(root, oldest, commit)) return git(root, 'rev-parse', `${commit}^1`)
  throw new Error(`${oldest} is not on the first-parent line of ${head}`)
}

function isAncestor(root: string, ancestor: string, commit: string): boolean {
  try {
    execFileSync('git', ['-C', root, 'merge-base', '--is-ancestor', ancestor, commit])
    return true
  } catch {
    return false
  }
}

/**
 * `commit` checked out in a git worktree of its own beside `root` (`<tmpdir>/pf-bench-<sha>`, kept for the
 * next run; `git worktree remove --force <dir>` removes it), installed from its lockfile and the provider built
 * with its workspace dependencies. Returns the worktree's path. The commands' output goes to `build.log` there.
 */
export function buildCommit(root: string, commit: string, { rebuild = false } = {}): string {
  const sha = git(root, 'rev-parse', commit)
  const dir = join(tmpdir(), `pf-bench-${sha.slice(0, 12)}`)
  const main = join(dir, 'services', 'provider', 'dist', 'main.js')
  if (existsSync(main) && !rebuild) return dir
  if (!existsSync(dir)) git(root, 'worktree', 'add', '--detach', dir, sha)
  const log = openSync(join(dir, 'build.log'), 'a')
  const run = (command: string, args: string[]) => {
    try {
      execFileSync(command, args, { cwd: dir, stdio: ['ignore', log, log] })
    } catch {
      throw new Error(`${command} ${args.join(' ')} failed in ${dir}: see ${join(dir, 'build.log')}`)
    }
  }
  run('pnpm', ['install', '--frozen-lockfile'])
  run('pnpm', ['--filter', '@pf/provider...', 'build'])
  if (!existsSync(main)) throw new Error(`${main} was not built: see ${join(dir, 'build.log')}`)
  return dir
}
