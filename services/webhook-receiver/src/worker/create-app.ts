import express, { type Express } from 'express'
import type { Registry } from 'prom-client'
import { createOpsRouter, type Logger, type OpsSettings } from '@pf/service-kit'

export interface WorkerAppInput {
  config: { ops?: OpsSettings }
  deps: {
    registry: Registry
    /** Resolves when Redis answers and the queues are consumed. */
    ready: () => Promise<unknown>
    logger: Logger
  }
}

/** The worker's ops app: `/health`, `/ready` (`ready` resolves) and `/metrics`; it serves no other route. */
export function createApp({ config, deps: { registry, ready, logger } }: WorkerAppInput): Express {
  const app = express()
  app.use(createOpsRouter({ registry, ready, logger, ops: config.ops }))
  return app
}
