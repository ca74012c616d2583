import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { isKnownEventKind } from '@pf/schemas'
import type { WebhookHandlers } from '@pf/schemas'

/**
 * Loads the application owner's handlers from a CommonJS or ES module exporting `handlers`. Fails with a
 * message that says what is wrong with the module, at start, not on the first event.
 */
export async function loadHandlers(path: string): Promise<WebhookHandlers> {
  const url = pathToFileURL(resolve(path)).href
  const mod = (await import(url)) as { handlers?: unknown; default?: { handlers?: unknown } }
  const handlers = mod.handlers ?? mod.default?.handlers
  if (typeof handlers !== 'object' || handlers === null) {
    throw new Error(`WEBHOOK_HANDLERS module ${path} does not export "handlers"`)
  }
  for (const [kind, handler] of Object.entries(handlers)) {
    if (!isKnownEventKind(kind)) throw new Error(`WEBHOOK_HANDLERS: unknown event kind "${kind}" in ${path}`)
    if (typeof handler !== 'function')
      throw new Error(`WEBHOOK_HANDLERS: handler for "${kind}" is not a function`)
  }
  return handlers as WebhookHandlers
}
