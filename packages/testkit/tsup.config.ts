import { defineConfig } from 'tsup'

// One entry per subpath export, so each loads only its own dependencies.
const entry = {
  index: 'src/index.ts',
  'redis/index': 'src/redis/index.ts',
  'postgres/index': 'src/postgres/index.ts',
  's3/index': 'src/s3/index.ts',
  'emulators/index': 'src/emulators/index.ts',
  'platform/index': 'src/platform/index.ts',
  'openapi/index': 'src/openapi/index.ts',
}

export default defineConfig({
  entry: { ...entry, 'pf-sim': 'src/cli/pf-sim.ts' },
  format: ['cjs', 'esm'],
  dts: { entry },
  clean: true,
  sourcemap: true,
  target: 'node20',
})
