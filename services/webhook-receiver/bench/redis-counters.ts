import { processCpuMs } from './process-cpu'

/** What Redis has done so far: its process's CPU time (ms; 0 where /proc is missing) and its script calls. */
export interface RedisCounters {
  cpuMs: number
  scriptCalls: number
}

interface InfoClient {
  info(section: string): Promise<string>
}

/**
 * Reads a private Redis's counters (its `process_id` and `INFO commandstats`): the worker bench counts script
 * calls and CPU per job, which vary less with the machine's load than jobs per second do.
 */
export async function openRedisCounters(client: InfoClient): Promise<() => Promise<RedisCounters>> {
  const pid = Number(/process_id:(\d+)/.exec(await client.info('server'))?.[1])
  return async () => {
    const stats = await client.info('commandstats')
    const calls = (command: string) =>
      Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(stats)?.[1] ?? 0)
    return { cpuMs: processCpuMs(pid) ?? 0, scriptCalls: calls('evalsha') + calls('eval') }
  }
}
