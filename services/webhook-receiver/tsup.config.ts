import { defineConfig } from 'tsup'

// Entry points live in src/bin/; the build maps them to the contract's dist/<name>.js.
export default defineConfig({
  entry: {
    main: 'src/bin/main.ts',
    worker: 'src/bin/worker.ts',
    'dead-letters': 'src/bin/dead-letters.ts',
    doctor: 'src/bin/doctor.ts',
  },
  format: ['cjs'],
  clean: true,
  sourcemap: true,
  target: 'node20',
  esbuildOptions(options) {
    // Keep `import()` as it is so WEBHOOK_HANDLERS may name an ES module as well as a CommonJS one.
    options.supported = { ...options.supported, 'dynamic-import': true }
  },
})
