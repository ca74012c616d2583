import { validateWebhookEvent, WEBHOOK_EVENT_KINDS } from '@pf/schemas'
import { createWebhookEvent } from '@pf/testkit/platform'

describe("createWebhookEvent (the developer portal's send-test-event)", () => {
  it.each(WEBHOOK_EVENT_KINDS)('builds a %s event that @pf/schemas accepts', (kind) => {
    expect(validateWebhookEvent(createWebhookEvent(kind))).toMatchObject({ ok: true, value: { event: kind } })
  })
})
