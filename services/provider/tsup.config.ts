import { defineConfig } from 'tsup'

// Entry points live in src/bin/; the build maps them to the contract's dist/<name>.js.
export default defineConfig({
  entry: {
    main: 'src/bin/main.ts',
    doctor: 'src/bin/doctor.ts',
    'import-companies': 'src/bin/import-companies.ts',
  },
  format: ['cjs'],
  clean: true,
  sourcemap: true,
  target: 'node20',
  // An ES module only (the transliteration tables): bundled, so the CommonJS build needs no require(esm).
  noExternal: ['any-ascii'],
})
