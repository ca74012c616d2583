import type { Router } from 'express'
import type { RouteDoc } from './route-doc'

/** Method and path (OpenAPI style, `{id}` for `:id`) of each route mounted on `router`, in mounting order. */
export function mountedRoutes(router: Router): Pick<RouteDoc, 'method' | 'path'>[] {
  return router.stack.flatMap((layer) => {
    const route = layer.route as { path?: unknown; methods?: Record<string, boolean> } | undefined
    if (!route || typeof route.path !== 'string') return []
    const path = route.path.replace(/:(\w+)/g, '{$1}')
    return Object.keys(route.methods ?? {})
      .filter((method): method is RouteDoc['method'] => ROUTE_METHODS.includes(method as RouteDoc['method']))
      .map((method) => ({ method, path }))
  })
}

const ROUTE_METHODS: readonly RouteDoc['method'][] = ['get', 'post', 'put', 'patch', 'delete']
