// Writes src/screening/wasm-kernels/kernels-wasm.ts from kernels.wat (`pnpm --filter @pf/provider wasm`).
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { compileWat, embeddedModule } from './compile-wat'

async function main() {
  const dir = join(__dirname, '../src/screening/wasm-kernels')
  const base64 = await compileWat(join(dir, 'kernels.wat'))
  writeFileSync(join(dir, 'kernels-wasm.ts'), embeddedModule('KERNELS_WASM', 'kernels.wat', base64))
}

void main()
