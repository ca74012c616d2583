import { watch } from 'node:fs'
import { basename, dirname, resolve } from 'node:path'

/**
 * Calls `onChange` when the handlers file changes, once per burst of events (an editor's save is several) and
 * never twice at once. The folder is watched, not the file: editors that save by renaming a new file over the
 * old one would otherwise end the watch on the first save.
 */
export function watchHandlers(file: string, onChange: () => Promise<void>, settleMs = 200) {
  const path = resolve(file)
  let timer: NodeJS.Timeout | undefined
  let running = Promise.resolve()
  const watcher = watch(dirname(path), (_event, name) => {
    if (name !== basename(path)) return
    clearTimeout(timer)
    timer = setTimeout(() => {
      running = running.then(onChange).catch(() => {})
    }, settleMs)
  })
  return {
    close: () => {
      clearTimeout(timer)
      watcher.close()
    },
  }
}
