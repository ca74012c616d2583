import { OutboundUrlError, postSignedJson, type SignedPostOptions } from '@pf/provider-kit'

export interface AlertTarget {
  alertUrl: string
  alertToken: string
}

/** The kit's signed POST: the outbound client, private targets, ports, each POST's time-out. */
export type AlertPostOptions = SignedPostOptions

/** What one attempt gave: acknowledged (2xx), or why not, in words a watch's owner may read. */
export type AlertPostOutcome = { ok: true; status: number } | { ok: false; error: string; detail?: string }

/**
 * POSTs a serialized batch to the watch's `alertUrl`, signed with its `alertToken` exactly as status callbacks
 * are (the kit's `postSignedJson`: `X-PF-Signature: sha256=<hex>` over the body's bytes). The outbound-safety
 * check runs at every send, since the address a URL names may have changed since the watch was saved. Only a
 * 2xx acknowledges; the answer's body is never read.
 */
export async function postAlertBatch(
  target: AlertTarget,
  body: Buffer,
  options: AlertPostOptions,
): Promise<AlertPostOutcome> {
  try {
    const status = await postSignedJson(target.alertUrl, body, target.alertToken, {
      what: 'alertUrl',
      ...options,
    })
    if (status >= 200 && status < 300) return { ok: true, status }
    return { ok: false, error: `alertUrl answered HTTP ${status}` }
  } catch (error) {
    return { ok: false, ...describeFailure(error) }
  }
}

/** A refusal says why; a network failure says its kind, and only the log gets the full text (a DNS answer). */
function describeFailure(error: unknown): { error: string; detail?: string } {
  if (error instanceof OutboundUrlError) return { error: error.message }
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  const detail = typeof message === 'string' ? message : String(error)
  if (detail.includes('resolves to a non-public address'))
    return { error: 'alertUrl resolves to a non-public address', detail }
  if (code === 'ECONNABORTED' || code === 'ERR_CANCELED' || /timeout|aborted/i.test(detail))
    return { error: 'alertUrl did not answer in time', detail }
  return { error: `alertUrl could not be reached${typeof code === 'string' ? ` (${code})` : ''}`, detail }
}
