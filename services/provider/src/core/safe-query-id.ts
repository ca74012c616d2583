/**
 * queryIds become part of an object key (`<prefix><queryId>.json`): letters, digits and `._:-` only, no `..`,
 * at most 128 characters, so a queryId can never climb out of its prefix.
 */
export const SAFE_QUERY_ID = /^(?!.*\.\.)[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/
