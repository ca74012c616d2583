import { join } from 'node:path'
import { locateReferenceData } from '@pf/testkit'
import { RECALL_THRESHOLD, scriptRecall } from '../test/support-script-recall'
import { round } from './stats'

/** Scripts whose share issue 25 sets a target for. */
const TARGETED = new Set(['Arab', 'Cyrl'])

/**
 * Names across scripts on the UN list (its `NAME_ORIGINAL_SCRIPT`s), per script: the share of records found as
 * the top hit (score ≥ `RECALL_THRESHOLD`) from their original-script name against the list's Latin names only,
 * and from their Latin name against its original-script names only.
 */
export async function benchScripts() {
  const file = join(locateReferenceData(__dirname), 'un-consolidated', 'consolidated.xml')
  const percent = (found: number, records: number) => `${round((100 * found) / records, 1)} (${found})`
  return (await scriptRecall(file)).map((row) => ({
    benchmark: `UN list across scripts, ${row.script} (${row.records} records): top hit ≥ ${RECALL_THRESHOLD}, original → Latin names / Latin → original names`,
    metric: '%',
    value: `${percent(row.originalToLatin, row.records)} / ${percent(row.latinToOriginal, row.records)}`,
    target: TARGETED.has(row.script) ? '>= 80 / >= 80' : '',
  }))
}
