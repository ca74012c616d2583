import { defineConfig } from 'tsup'

// Entry points live in src/bin/; the build maps them to the contract's dist/<name>.js.
export default defineConfig({
  entry: {
    main: 'src/bin/main.ts',
    doctor: 'src/bin/doctor.ts',
    'exchange-passwords': 'src/bin/exchange-passwords.ts',
  },
  format: ['cjs'],
  clean: true,
  sourcemap: true,
  target: 'node20',
})
