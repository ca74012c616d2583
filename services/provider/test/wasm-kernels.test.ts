import { join } from 'node:path'
import { compileWat } from '../scripts/compile-wat'
import { KERNELS_WASM } from '../src/screening/wasm-kernels/kernels-wasm'

describe('the embedded lack-count kernel', () => {
  it('is lack-count.wat as compiled now (rerun `pnpm --filter @pf/provider wasm` after editing it)', async () => {
    expect(await compileWat(join(__dirname, '../src/screening/wasm-kernels/kernels.wat'))).toBe(KERNELS_WASM)
  })
})
