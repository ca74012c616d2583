export interface KnownUser {
  id: string
  username: string
}

/**
 * Remembers, for a bounded time and number of users, that a marketplace user's provider account exists with
 * these exact attributes (the key holds them all), so the next exchange can go straight to the password grant.
 * Least recently used entries go first.
 */
export class WarmCache {
  private readonly entries = new Map<string, { user: KnownUser; expiresAt: number }>()

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): KnownUser | undefined {
    const entry = this.entries.get(key)
    if (!entry) return undefined
    this.entries.delete(key)
    if (entry.expiresAt <= this.now()) return undefined
    this.entries.set(key, entry)
    return entry.user
  }

  set(key: string, user: KnownUser): void {
    if (this.maxEntries === 0 || this.ttlMs === 0) return
    this.entries.delete(key)
    this.entries.set(key, { user, expiresAt: this.now() + this.ttlMs })
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string)
  }

  delete(key: string): void {
    this.entries.delete(key)
  }

  get size(): number {
    return this.entries.size
  }
}
