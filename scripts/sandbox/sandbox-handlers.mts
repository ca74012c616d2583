// The sandbox worker's WEBHOOK_HANDLERS (loaded through tsx): the built-in handlers that log each event, your
// own from `pnpm start --handlers FILE` over them kind by kind, and one failure on purpose, in the sandbox only
// (never among the production worker's built-ins): a purchase.completed whose itemId is "fail-me" fails every
// attempt, so that retries, dead letters and replay can be tried end to end.
import type { WebhookHandlers } from '@pf/schemas'
import { defaultHandlers } from '../../services/webhook-receiver/src/worker/default-handlers'
import { loadHandlers } from '../../services/webhook-receiver/src/worker/load-handlers'

export const FAIL_ME_ITEM = 'fail-me'

async function sandboxHandlers(ownPath: string | undefined): Promise<WebhookHandlers> {
  const own = ownPath ? await loadHandlers(ownPath) : {}
  const handlers: WebhookHandlers = { ...defaultHandlers, ...own }
  const completed = handlers['purchase.completed']
  handlers['purchase.completed'] = async (event, context) => {
    if (event.data.itemId === FAIL_ME_ITEM)
      throw new Error(
        `sandbox: a purchase.completed of item "${FAIL_ME_ITEM}" always fails (to try retries and dead letters)`,
      )
    return completed?.(event, context)
  }
  return handlers
}

export const handlers = await sandboxHandlers(process.env.PF_SANDBOX_HANDLERS || undefined)
