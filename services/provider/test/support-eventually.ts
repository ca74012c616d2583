/** Polls `check` until it holds (a hang guard: Jest's time-out ends a test that never sees it). */
export async function eventually(check: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 10))
}
