import type { RouteDoc } from './route-doc'

/** A request as the kit sees it below `/api`: its method and `req.path`. */
export interface ApiRequest {
  method: string
  path: string
}

const escaped = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&')

/**
 * Whether a request below `/api` goes to a route whose doc says it streams its body (`streamed`), matched as
 * Express routes it: `{name}` is one path segment, letters in any case, a trailing slash allowed.
 */
export function streamedRoutes(docs: readonly RouteDoc[]): (req: ApiRequest) => boolean {
  const routes = docs
    .filter((doc) => doc.streamed)
    .map((doc) => ({
      method: doc.method.toUpperCase(),
      pattern: new RegExp(
        `^${doc.path
          .split(/\{\w+\}/)
          .map(escaped)
          .join('[^/]+')}/?$`,
        'i',
      ),
    }))
  return (req) => routes.some((route) => route.method === req.method && route.pattern.test(req.path))
}
