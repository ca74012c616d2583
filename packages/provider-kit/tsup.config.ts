import { defineConfig } from 'tsup'

// @pf/service-kit is private (never published): what the kit uses of it (ops routes, metrics, errors, tracing,
// server and shutdown) is bundled into dist, its types inlined into the .d.ts; its own dependencies are ours.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['cjs', 'esm'],
  dts: { resolve: ['@pf/service-kit'] },
  clean: true,
  sourcemap: true,
  target: 'node20',
  noExternal: ['@pf/service-kit'],
  // Only service-kit's startTracing imports the OpenTelemetry SDK, and the kit never calls it: the host
  // registers its own SDK (spans go through @opentelemetry/api).
  external: ['@opentelemetry/sdk-node'],
})
