import { execFile } from 'node:child_process'
import { join } from 'node:path'

const bin = join(__dirname, '..', 'packages', 'testkit', 'dist', 'pf-sim.js')

/** What one `pf-sim` run printed and how it ended. */
export interface PfSimRun {
  code: number
  stdout: string
  stderr: string
}

/** The environment of a terminal: in particular, no AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED. */
export const terminalEnv = { PATH: process.env.PATH }

/** Runs the built `pf-sim` as a user does (a child process, a terminal's environment); never rejects. */
export const runPfSim = (...args: string[]) =>
  new Promise<PfSimRun>((resolve) => {
    execFile(process.execPath, [bin, ...args], { env: terminalEnv }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    )
  })
