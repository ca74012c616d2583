import { defineConfig } from 'tsup'

export default defineConfig({
  entry: ['src/main.ts', 'src/worker.ts', 'src/dead-letters.ts'],
  format: ['cjs'],
  clean: true,
  sourcemap: true,
  target: 'node20',
  esbuildOptions(options) {
    // Keep `import()` as it is so WEBHOOK_HANDLERS may name an ES module as well as a CommonJS one.
    options.supported = { ...options.supported, 'dynamic-import': true }
  },
})
