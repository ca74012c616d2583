import { listedNames } from '../src/datasets/listed-names'
import type { ListedName, SanctionEntry } from '../src/datasets/records'
import {
  comparedListed,
  explainForm,
  formsMeet,
  listedForms,
  queryForms,
  scoreForm,
  type ListedForm,
  type QueryForm,
} from '../src/matching/name-forms'
import type { ScoreExplanation } from '../src/matching/name-score'
import { namePenalty } from '../src/matching/name-weight'
import { evidencePoints, nameEvidence } from '../src/matching/name-evidence'
import { EntryGroups } from '../src/screening/entry-groups'
import {
  rankHits,
  type ListedNames,
  type NameHit,
  type SanctionMatch,
  type Screening,
} from '../src/screening/rank-hits'
import type { SanctionsQuery } from '../src/screening/sanctions-index'
import { ScreeningRules } from '../src/screening/screening-rules'

/**
 * The reference screening: every name and alias scored with `scoreName`, no pre-filter. What the index must
 * return exactly (tests compare them), and the baseline its speed is measured against (`pnpm bench`). The
 * service never runs it: it lives with the tests, built from the same scorer, rules and ranking as the index.
 */
export class SanctionsScan implements ListedNames {
  private constructor(
    readonly entries: readonly SanctionEntry[],
    readonly groups: EntryGroups,
    /** Every form of every name (`listedForms`), in the index's row order. */
    private readonly names: { entry: number; listed: ListedName; form: ListedForm }[],
  ) {}

  static build(entries: readonly SanctionEntry[]): SanctionsScan {
    return new SanctionsScan(
      entries,
      EntryGroups.build(entries),
      entries.flatMap((entry, index) =>
        listedNames(entry).flatMap((listed) =>
          listedForms(listed.name, listed.script).map((form) => ({ entry: index, listed, form })),
        ),
      ),
    )
  }

  display(name: number): string {
    return this.names[name]!.listed.name
  }

  listed(name: number): ListedName {
    return this.names[name]!.listed
  }

  explain(form: QueryForm, _formIndex: number, name: number): ScoreExplanation {
    return explainForm(form, this.names[name]!.form.prepared)
  }

  partCount(name: number): number {
    return this.names[name]!.form.prepared.parts.length
  }

  transliterated(name: number): boolean {
    return this.names[name]!.form.transliterated
  }

  /** The best `limit` entries reaching the threshold, best first. */
  search(query: SanctionsQuery): SanctionMatch[] {
    return this.screen(query).matches
  }

  /** `search`, and how many parties reached the threshold in all (more than `limit` means it was cut). */
  screen({ name, threshold, limit, deadline: _deadline, ...choices }: SanctionsQuery): Screening {
    const forms = queryForms(name)
    const rules = new ScreeningRules(this.entries, choices)
    const hits: NameHit[] = []
    this.names.forEach((listed, id) => {
      if (!rules.allows(listed.entry)) return
      forms.forEach((form, formIndex) => {
        if (!formsMeet(form, listed.form)) return
        const raw = scoreForm(form, listed.form)
        const points = namePenalty(listed.listed.kind) + rules.birthPenalty(listed.entry)
        // The precision rules only lower a score: a name already below the threshold stays there.
        if (Math.max(0, raw - points) < threshold) return
        const evidence = nameEvidence(
          form.prepared,
          comparedListed(form, listed.form.prepared),
          form.skeletal,
        )
        const score = Math.max(0, raw - points - evidencePoints(evidence))
        if (score >= threshold) hits.push({ name: id, entry: listed.entry, score, form: formIndex, evidence })
      })
    })
    return rankHits(hits, forms, limit, this, rules)
  }
}
