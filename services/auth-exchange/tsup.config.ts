import { defineConfig } from 'tsup'

export default defineConfig({
  entry: ['src/main.ts'],
  format: ['cjs'],
  clean: true,
  sourcemap: true,
  target: 'node20',
})
