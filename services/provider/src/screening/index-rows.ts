import { listedNames } from '../datasets/listed-names'
import type { SanctionEntry } from '../datasets/records'
import { listedForms } from '../matching/name-forms'
import { namePenalty } from '../matching/name-weight'

/** A `listedForms` row that is a Latin spelling of its name (`IndexRows.flags`). */
export const TRANSLITERATED = 1
/** A row of a name written in Arabic or Hebrew. */
export const ABJAD = 2
/** A row of a Korean name's romanisation keys (`koreanName`). */
export const KOREAN = 4

/** What the index keeps of each form of each listed name (a row), flat. */
export interface IndexRows {
  /** Entry of each row, and which of its names it is a form of (−1: the entry's name, k: its alias k). */
  entry: Int32Array
  alias: Int32Array
  /** Points a match on the row loses for its name's kind (`namePenalty`). */
  points: Uint8Array
  /** `TRANSLITERATED`, `ABJAD` and `KOREAN` bits. */
  flags: Uint8Array
  wholes: string[]
  parts: string[][]
}

/** The rows of every name of every entry: each name as written, then its Latin spellings (`listedForms`). */
export function buildIndexRows(entries: readonly SanctionEntry[]): IndexRows {
  const entry: number[] = []
  const alias: number[] = []
  const points: number[] = []
  const flags: number[] = []
  const wholes: string[] = []
  const parts: string[][] = []
  entries.forEach((listedEntry, index) => {
    listedNames(listedEntry).forEach(({ name, kind, script }, k) => {
      for (const form of listedForms(name, script)) {
        entry.push(index)
        alias.push(k - 1)
        points.push(namePenalty(kind))
        flags.push(
          (form.transliterated ? TRANSLITERATED : 0) | (form.abjad ? ABJAD : 0) | (form.korean ? KOREAN : 0),
        )
        wholes.push(form.prepared.whole)
        parts.push(form.prepared.parts)
      }
    })
  })
  return {
    entry: Int32Array.from(entry),
    alias: Int32Array.from(alias),
    points: Uint8Array.from(points),
    flags: Uint8Array.from(flags),
    wholes,
    parts,
  }
}
