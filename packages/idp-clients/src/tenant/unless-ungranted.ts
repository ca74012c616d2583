import { IdpMisconfiguredError } from '../errors'
import { found, type SetupFinding } from '../setup-check'

/** A read only the doctor makes (`read:clients`, `read:connections`, …): without its scope, it cannot tell. */
export async function unlessUngranted(
  scope: string,
  read: () => Promise<SetupFinding>,
): Promise<SetupFinding> {
  try {
    return await read()
  } catch (error) {
    if (!(error instanceof IdpMisconfiguredError)) throw error
    return found(`not checked: the grant lacks ${scope} (only this check would use it)`)
  }
}
