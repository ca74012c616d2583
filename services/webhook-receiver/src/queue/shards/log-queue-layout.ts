import type { Logger } from '@pf/service-kit'
import type { QueueLayout } from './claim-queue-layout'

/** The start's line about the layout, and a reminder when `QUEUE_RESHARD_FROM` has outlived its resharding. */
export function logQueueLayout(logger: Logger, layout: QueueLayout, reshardFrom: number | undefined): void {
  const { shards, resharding } = layout
  if (resharding)
    logger.info(
      { shards, reshardFrom: resharding.from, until: new Date(resharding.until).toISOString() },
      'queue layout: resharding, the old layout is read too until then',
    )
  else logger.info({ shards }, 'queue layout')
  if (!resharding && reshardFrom !== undefined && reshardFrom !== shards)
    logger.warn(
      { shards, reshardFrom },
      'QUEUE_RESHARD_FROM is set but no resharding runs (it has ended): remove it once the old layout holds no job or dead letter',
    )
}
