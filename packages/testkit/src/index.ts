// The light entry: nothing here loads a server, an SDK or a JWT library. Heavier helpers live in the subpath
// entries (`@pf/testkit/redis`, `/postgres`, `/s3`, `/emulators`, `/platform`, `/openapi`), each loading only its own.
export { createCleanup } from './create-cleanup'
export type { Cleanup } from './create-cleanup'
export { locateReferenceData } from './locate-reference-data'
export { loadTestVectors } from './load-test-vectors'
export type { DerivedPasswordVector, SignatureVector, TestVectors } from './load-test-vectors'
export { freePort } from './lib/free-port'
export { startServiceProcess } from './start-service-process'
export type { ServiceProcess, StartServiceProcessOptions } from './start-service-process'
export { startOtlpCollector } from './otlp/start-otlp-collector'
export type { OtlpCollector, StartOtlpCollectorOptions } from './otlp/start-otlp-collector'
export type { CollectedSpan } from './otlp/collected-span'
export type { OtlpProtocol } from './otlp/otlp-protocol'
