import { existsSync } from 'node:fs'
import type { Logger } from '@pf/service-kit'
import type { ProviderConfig } from '../config'
import { holdsSanctionsList } from './load-sanctions-source'
import { SanctionsLists } from './sanctions-lists'

/**
 * The sanctions lists to screen against: `SANCTIONS_SOURCES`, or the lists in `PROVIDER_DATA_DIR` (none there:
 * the engine keeps the datasets' own entries, and there is nothing to refresh), each read within
 * `SANCTIONS_LOAD_TIMEOUT_MS` and `SANCTIONS_MAX_BYTES`, refreshed within `SANCTIONS_MIN_SHARE`, its names cut to
 * `SANCTIONS_MAX_NAME_LENGTH`. A list that cannot be read or parsed, or is empty without `allow-empty:`, stops
 * the start: serving without it would screen against less than the operator configured.
 *
 * @example
 * const lists = await loadConfiguredLists(config, logger)
 */
export async function loadConfiguredLists(
  { sanctions, dataDir }: Pick<ProviderConfig, 'sanctions' | 'dataDir'>,
  logger: Logger,
): Promise<SanctionsLists | undefined> {
  const options = listLoadOptions(sanctions, logger)
  if (sanctions.sources) return SanctionsLists.load(sanctions.sources, options)
  if (!existsSync(dataDir) || !holdsSanctionsList(dataDir)) return undefined
  return SanctionsLists.load([dataDir], options)
}

/** The limits every load of the configured lists applies (the start, each refresh, and `doctor`'s check). */
export function listLoadOptions(sanctions: ProviderConfig['sanctions'], logger: Logger) {
  return {
    timeoutMs: sanctions.loadTimeoutMs,
    maxBytes: sanctions.maxBytes,
    minShare: sanctions.minShare,
    maxNameLength: sanctions.maxNameLength,
    logger,
  }
}
