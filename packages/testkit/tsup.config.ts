import { defineConfig } from 'tsup'

export default defineConfig({
  entry: { index: 'src/index.ts', 'pf-sim': 'src/cli/pf-sim.ts' },
  format: ['cjs', 'esm'],
  dts: { entry: { index: 'src/index.ts' } },
  clean: true,
  sourcemap: true,
  target: 'node20',
})
