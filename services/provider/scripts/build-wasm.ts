// Writes src/screening/lack-count-wasm.ts from lack-count.wat (`pnpm --filter @pf/provider wasm`).
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { compileWat, embeddedModule } from './compile-wat'

async function main() {
  const dir = join(__dirname, '../src/screening')
  const base64 = await compileWat(join(dir, 'lack-count.wat'))
  writeFileSync(join(dir, 'lack-count-wasm.ts'), embeddedModule('LACK_COUNT_WASM', 'lack-count.wat', base64))
}

void main()
