import { defineConfig } from 'tsup'

export default defineConfig({
  entry: ['src/main.ts', 'src/worker.ts', 'src/dead-letters.ts', 'src/handlers.ts'],
  format: ['cjs'],
  // Types only for the handler helpers that application owners import.
  dts: { entry: ['src/handlers.ts'] },
  clean: true,
  sourcemap: true,
  target: 'node20',
  esbuildOptions(options) {
    // Keep `import()` as it is so WEBHOOK_HANDLERS may name an ES module as well as a CommonJS one.
    options.supported = { ...options.supported, 'dynamic-import': true }
  },
})
