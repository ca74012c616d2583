/**
 * What one of a party's names is: its primary name, an alias, a weak alias (UN quality "Low", FollowTheMoney
 * `weakAlias`: scored lower), a former name, or the name as written in its own script (UN
 * `NAME_ORIGINAL_SCRIPT`).
 */
export type NameKind = 'primary' | 'alias' | 'weak-alias' | 'previous' | 'original-script'

/**
 * Points a match on a weak alias loses (UN quality "Low", FollowTheMoney `weakAlias`). The UN calls a low-quality
 * alias one "insufficient to identify" the party, and OFAC does not screen its weak akas: an exact match on
 * one lands at 90, in the review band rather than the block band (95+), and a near one below the default
 * threshold. The hit's explanation says so (`adjustments`).
 */
export const WEAK_ALIAS_POINTS = 10

/** The points a match on a name of this kind loses (0 for every kind but a weak alias). */
export function namePenalty(kind: NameKind): number {
  return kind === 'weak-alias' ? WEAK_ALIAS_POINTS : 0
}
