import { join } from 'node:path'
import { compileWat } from '../scripts/compile-wat'
import { LACK_COUNT_WASM } from '../src/screening/lack-count-wasm'

describe('the embedded lack-count kernel', () => {
  it('is lack-count.wat as compiled now (rerun `pnpm --filter @pf/provider wasm` after editing it)', async () => {
    expect(await compileWat(join(__dirname, '../src/screening/lack-count.wat'))).toBe(LACK_COUNT_WASM)
  })
})
