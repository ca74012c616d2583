import { defineConfig } from 'tsup'

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  esbuildOptions(options) {
    // `import()` becomes `require()`: the OpenTelemetry SDK must load as CommonJS, as this bundle's own
    // `@opentelemetry/api` does; loaded as an ES module it would bring a second API instance whose tracers,
    // taken before the SDK started, stay no-ops.
    options.supported = { ...options.supported, 'dynamic-import': false }
  },
})
