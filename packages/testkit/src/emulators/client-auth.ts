import type { Request } from 'express'

/** Client credentials from an HTTP Basic header or from the body, as OAuth servers accept both. */
export function clientCredentials(req: Request): { clientId?: string; clientSecret?: string } {
  const basic = /^Basic\s+(.+)$/i.exec(req.get('authorization') ?? '')
  if (basic?.[1]) {
    const [id, secret] = Buffer.from(basic[1], 'base64').toString('utf8').split(':')
    return { clientId: decodeURIComponent(id ?? ''), clientSecret: decodeURIComponent(secret ?? '') }
  }
  const body = (req.body ?? {}) as Record<string, unknown>
  return {
    clientId: typeof body.client_id === 'string' ? body.client_id : undefined,
    clientSecret: typeof body.client_secret === 'string' ? body.client_secret : undefined,
  }
}
