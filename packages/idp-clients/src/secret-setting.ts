/**
 * A setting that holds a secret, with the least length production should accept: what a service's production
 * check (no placeholder, long enough) is given. Its value never appears in a message.
 */
export interface SecretSetting {
  name: string
  /** Its values (one; several during a rotation). */
  values: string[]
  /** Shortest value accepted in production, in UTF-8 bytes. */
  minBytes: number
}
