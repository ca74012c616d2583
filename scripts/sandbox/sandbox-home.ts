import { join, resolve } from 'node:path'

/**
 * The folder the sandboxes keep their state in: `SANDBOX_DIR`, else `.sandbox` at the repository's root. Read by
 * `pnpm start` and `pnpm dead-letters` alike, so a test (or a second checkout's sandboxes) can keep its own.
 */
export const sandboxHome = (root: string, env: NodeJS.ProcessEnv = process.env) =>
  resolve(env.SANDBOX_DIR?.trim() || join(root, '.sandbox'))
