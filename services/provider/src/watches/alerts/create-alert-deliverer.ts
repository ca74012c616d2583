import type { Pool } from 'pg'
import { Counter, type Registry } from 'prom-client'
import { createOutboundClient, type OutboundClient } from '@pf/provider-kit'
import type { Logger } from '@pf/service-kit'
import { DEFAULT_ALERT_DELIVERY, type AlertDeliverySettings } from './alert-delivery-settings'
import { deliverNextBatch } from './deliver-next-batch'
import { formAlertBatches } from './form-alert-batches'

export interface AlertDelivererOptions {
  /** The watches database (schema migrated by `migrateWatches`); at least `concurrency` + 1 connections. */
  pool: Pool
  logger: Logger
  /** The provider's outbound safety (`OUTBOUND_*`): private targets, ports, each POST's time-out. */
  outbound: { allowPrivate: boolean; allowedPorts?: readonly number[]; timeoutMs: number }
  settings?: Partial<Omit<AlertDeliverySettings, 'retry'>> & {
    retry?: Partial<AlertDeliverySettings['retry']>
  }
  /** Where `pf_provider_watch_alert_attempts_total{outcome}` goes; none: not counted. */
  registry?: Registry
  /** Default: a client made from `outbound` (`createOutboundClient`). */
  http?: OutboundClient
  /** The jitter's source (tests). */
  random?: () => number
}

export interface AlertDeliverer {
  /** Starts `concurrency` loops that form batches and send them until `stop()`. */
  start(): void
  /** Looks for work now rather than at the next poll (after alerts were generated, say). */
  wake(): void
  /** Stops taking work and resolves once the attempts in flight are over (each bounded by its time-out). */
  stop(): Promise<void>
}

/**
 * Delivers watch alerts from the database, as many replicas as run: forms batches (`formAlertBatches`) and
 * sends each due one (`deliverNextBatch`), polling every `pollMs` when idle. Everything it knows is in the
 * database, so a restart or another replica carries on where it stopped.
 *
 * @example
 * const deliverer = createAlertDeliverer({ pool, logger, outbound: { allowPrivate: false, timeoutMs: 10_000 } })
 * deliverer.start()
 * process.once('SIGTERM', () => void deliverer.stop())
 */
export function createAlertDeliverer(options: AlertDelivererOptions): AlertDeliverer {
  const { pool, logger, outbound, settings = {} } = options
  const { batchSize, concurrency, pollMs } = { ...DEFAULT_ALERT_DELIVERY, ...settings }
  const retry = { ...DEFAULT_ALERT_DELIVERY.retry, ...settings.retry }
  const http =
    options.http ??
    createOutboundClient({ allowPrivate: outbound.allowPrivate, timeoutMs: outbound.timeoutMs })
  const attempts = options.registry && attemptsCounter(options.registry)
  const deliverOptions = {
    post: { http, ...outbound },
    retry,
    logger,
    random: options.random,
    onOutcome: (outcome: string) => attempts?.inc({ outcome }),
  }
  // An idle connection whose session ended (a database restart) is an 'error' event on the pool, which would
  // end the process unheard: logged while the deliverer runs; the next pass connects again.
  const onPoolError = (error: Error) => logger.warn({ err: error }, 'watches database connection lost')
  let running = false
  let loops: Promise<void>[] = []
  const sleepers = new Set<() => void>()
  const wake = () => {
    for (const resolve of sleepers) resolve()
    sleepers.clear()
  }
  const idle = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, pollMs)
      function done() {
        clearTimeout(timer)
        sleepers.delete(done)
        resolve()
      }
      sleepers.add(done)
    })
  const loop = async () => {
    while (running) {
      let worked = false
      try {
        worked =
          (await deliverNextBatch(pool, deliverOptions)) || (await formAlertBatches(pool, { batchSize })) > 0
      } catch (error) {
        logger.error({ err: error }, 'alert delivery pass failed, tried again at the next poll')
      }
      if (!worked && running) await idle()
    }
  }
  return {
    start() {
      if (running) return
      running = true
      pool.on('error', onPoolError)
      loops = Array.from({ length: concurrency }, loop)
    },
    wake,
    async stop() {
      running = false
      wake()
      await Promise.all(loops)
      loops = []
      pool.off('error', onPoolError)
    },
  }
}

function attemptsCounter(registry: Registry) {
  return new Counter({
    name: 'pf_provider_watch_alert_attempts_total',
    help: 'Attempts to deliver a watch alert batch, by outcome (sent; retry: retried later; failed: past the horizon)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  })
}
