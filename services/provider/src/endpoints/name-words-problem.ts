import { MAX_SEARCH_NAME_WORDS } from '@pf/schemas'

/** A `name` of more than `MAX_SEARCH_NAME_WORDS` words is refused (both searches): its refusal, or undefined. */
export function nameWordsProblem({ name }: { name?: string | null }): string | undefined {
  if (name && name.trim().split(/\s+/).length > MAX_SEARCH_NAME_WORDS)
    return `name has more than ${MAX_SEARCH_NAME_WORDS} words`
  return undefined
}
