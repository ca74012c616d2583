import type { Listener } from './find-busy-ports'

/**
 * Every port the sandbox listens on, at the contract's numbers given to `port` (which adds `--port-offset`): the
 * emulators and S3 on 127.0.0.1, the services and the issuer on `host`.
 */
export function sandboxListeners({
  idp,
  host,
  port,
}: {
  idp: ('realm' | 'tenant')[]
  host: string
  port: (fixed: number) => number
}): Listener[] {
  const local = '127.0.0.1'
  const realm = idp.includes('realm')
  const tenant = idp.includes('tenant')
  return [
    { name: 'S3 (s3rver)', host: local, port: port(4569) },
    { name: 'marketplace JWT issuer', host, port: port(4200) },
    ...(realm ? [{ name: 'Keycloak emulator', host: local, port: port(4100) }] : []),
    ...(tenant ? [{ name: 'Auth0 emulator', host: local, port: port(4110) }] : []),
    { name: 'provider', host, port: port(3002) },
    { name: 'webhook receiver', host, port: port(3001) },
    { name: 'webhook worker', host, port: port(3011) },
    ...(realm ? [{ name: 'auth exchange (realm)', host, port: port(3003) }] : []),
    ...(tenant ? [{ name: 'auth exchange (tenant)', host, port: port(3004) }] : []),
  ]
}
