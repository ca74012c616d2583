import { readFileSync } from 'node:fs'

/** CPU time a process has used so far, in milliseconds (Linux /proc; undefined elsewhere). */
export function processCpuMs(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
    // utime and stime, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return undefined
  }
}
