import { LEAVE_FAST, ORDERING, ORDERING_FUNCTIONS, TAKE_TURN_FAST } from './ordering-scripts'
import { JOB_FIELDS, pendingKeyLua } from './session-keys'
import { HASHED, MAX_KEY_SESSION_ID } from './session-of'

type BullmqScript = Record<string, { content: string }>

/** A BullMQ script as a Lua function whose KEYS and ARGV are its arguments (they shadow the globals). */
const asFunction = (name: string, script: { content: string }) =>
  `local function ${name}(KEYS, ARGV)\n${script.content}\nend\n`

const takeTurns = (
  scripts: BullmqScripts,
  argv: { packedOpts: string; timestamp: string; parkMs: string },
  fetchNext: string,
) => `
-- Written out, not a function: a closure made costs a script call a fifth to a third of a command, and this runs on
-- every fetch. Per job fetched: its session key part, webhookId (its dedup id), timestamp and lateness from its
-- hash as the receiver wrote them (\`pfs\`, \`pfts\`, \`pflate\`), or for a job enqueued without them, its session id
-- read from its envelope without decoding it (nil when not plainly there), a guess until \`acquire\` finds the job
-- in that session's pending set, where only the receiver's enqueue put it; else the processor decides. A job
-- whose turn it is not is parked as \`job.moveToDelayed(now + parkMs, token)\` calls BullMQ's moveToDelayed
-- (skipAttempt, no fetch), the token unpacked from the worker's options only then, and the next one fetched.
for parked = 0, ${MAX_PARKED} do
  if type(result) ~= 'table' or type(result[1]) ~= 'table' or not result[2] then break end
  local jobId, hash = result[2], result[1]
  local data, webhookId, late, session, score
  for i = 1, #hash, 2 do
    local field = hash[i]
    if field == 'data' then data = hash[i + 1]
    elseif field == 'deid' then webhookId = hash[i + 1]
    elseif field == '${JOB_FIELDS.session}' then session = hash[i + 1]
    elseif field == '${JOB_FIELDS.timestamp}' then score = hash[i + 1]
    elseif field == LATE then late = true end
  end
  local keyed = session ~= nil
  if not keyed and data then
    session = string.match(data, '"sessionId"%s*:%s*"([^"\\\\]*)"')
    if session and (session == '' or #session > ${MAX_KEY_SESSION_ID}
      or string.sub(session, 1, ${HASHED.length}) == '${HASHED}') then session = nil end
  end
  local taken, newest
  if session and webhookId and parked < ${MAX_PARKED} then
    pendingKey = ${pendingKeyLua('prefix', 'session')}
    me, member = jobId, webhookId .. ' ' .. jobId
${TAKE_TURN_FAST}
    if not taken then
      local turn = ${ORDERING}.acquire(late)
      taken, newest = turn[1], turn[2]
    end
  else
    taken = 'defer'
  end
  if taken ~= 'wait' then
    -- 'go' alone where the caller reads the session from the job's hash (\`pfs\`): a nested table costs Redis's
    -- reply more than a string; else {turn, newest, the session's key part where the hash has none}.
    if taken == 'go' and keyed then result[5] = 'go'
    else
      result[5] = {taken, newest or ''}
      if taken ~= 'defer' and not keyed then result[5][3] = session end
    end
    break
  end
  -- Made here, on a park only: a function defined in a branch is made when the branch runs.
  ${asFunction('bullmqMoveToDelayed', scripts.moveToDelayed)}
  bullmqMoveToDelayed({prefix .. 'marker', prefix .. 'active', prefix .. 'prioritized', prefix .. 'delayed',
    prefix .. jobId, prefix .. 'events', prefix .. 'meta', prefix .. 'stalled', prefix .. 'wait', prefix .. 'limiter',
    prefix .. 'paused', prefix .. 'pc'},
    {prefix, ${argv.timestamp}, jobId, cmsgpack.unpack(${argv.packedOpts})['token'], ${argv.parkMs}, '1', '', '0', ''})
${fetchNext}
end
return result
`

/** At most this many jobs parked by one fetch; the next is then deferred to the processor. */
const MAX_PARKED = 20

/**
 * What both fused scripts add around BullMQ's (`takeTurns`): a job BullMQ has just moved to active (and locked
 * with `token`) takes its session's turn (`acquire`); one whose turn it is not is parked in delayed for
 * `parkMs`, as the processor did with `job.moveToDelayed` (its attempts untouched), and the next job is fetched
 * in its place. The result gets a fifth element that BullMQ ignores: `go` (the turn taken, the job not late; the
 * caller reads the session's key part from the job's hash, `pfs`, and the member from `deid`), or {turn, newest,
 * sessionKey}, the turn being `go` or `late` (taken here; sessionKey only when the hash has no `pfs`) or
 * `defer` (the processor reads the event and takes the turn itself, with
 * ACQUIRE: an event the receiver did not register, or without a session; one enqueued without its place in its
 * hash whose session id is escaped in its JSON, longer than 128 bytes or starting with `sha256:` (its key part is
 * then a hash, `sessionOf`); a fetch after too many parked jobs).
 *
 * BullMQ's moveToActive (KEYS and ARGV[1..3] as BullMQ passes them) that hands on only a job whose session's
 * turn it is. ARGV[4]: the ordering state's time-to-live (ms); ARGV[5]: how long a parked job waits in delayed (ms).
 */
const fusedMoveToActive = (scripts: BullmqScripts) => `${ORDERING_FUNCTIONS}
${asFunction('bullmqMoveToActive', scripts.moveToActive)}
prefix, ttl = ARGV[1], ARGV[4]
local result = bullmqMoveToActive(KEYS, {ARGV[1], ARGV[2], ARGV[3]})
${takeTurns(
  scripts,
  { packedOpts: 'ARGV[3]', timestamp: 'ARGV[2]', parkMs: 'ARGV[5]' },
  'result = bullmqMoveToActive(KEYS, {ARGV[1], ARGV[2], ARGV[3]})',
)}`

/**
 * BullMQ's moveToFinished (KEYS and ARGV[1..9] as BullMQ passes them), followed by RELEASE for a completed job
 * that held its session's turn (ARGV[10]: its session key part, ARGV[11]: its pending member, both empty
 * otherwise), its next job handed on only in its session's turn (`takeTurns`). ARGV[12]: the state's
 * time-to-live (ms); ARGV[13]: how long a parked job waits in delayed (ms).
 */
const fusedMoveToFinished = (scripts: BullmqScripts) => `${ORDERING_FUNCTIONS}
${asFunction('bullmqMoveToFinished', scripts.moveToFinished)}
prefix, ttl = ARGV[7], ARGV[12]
local result = bullmqMoveToFinished(KEYS, ARGV)
-- As RELEASE did before the completion, unless another copy of the job holds its lock (BullMQ's -6): with the
-- lock gone or deleted by the completion, the job leaves its session, which goes on; before the turn of the
-- job the completion fetched, which may be the session's next event.
if ARGV[10] ~= '' and result ~= -6 then
  pendingKey = ${pendingKeyLua('prefix', 'ARGV[10]')}
  me, member = ARGV[1], ARGV[11]
${LEAVE_FAST}
end
${takeTurns(
  scripts,
  { packedOpts: 'ARGV[8]', timestamp: 'ARGV[2]', parkMs: 'ARGV[13]' },
  `${asFunction('bullmqMoveToActive', scripts.moveToActive)}
  result = bullmqMoveToActive({KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9],
    KEYS[10], KEYS[14]}, {ARGV[7], ARGV[2], ARGV[8]})`,
)}`

type BullmqScripts = Record<'moveToActive' | 'moveToFinished' | 'moveToDelayed', { content: string }>

/**
 * The two fused scripts' Lua (`fusedMoveToActive`, `fusedMoveToFinished`), made of the installed BullMQ's own
 * scripts (their includes inlined): wrapped, never copied, so they stay in step with the installed BullMQ. Read
 * only when asked for, which `takeTurnsInBullmq` does with the pinned version alone: with another version, whose
 * files may be named otherwise, the worker falls back to the per-job scripts instead of failing at start.
 */
export function fusedOrderingScripts(): { moveToActive: string; moveToFinished: string } {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const scripts: BullmqScripts = {
    moveToActive: (require('bullmq/dist/cjs/scripts/moveToActive-11') as BullmqScript).moveToActive!,
    moveToFinished: (require('bullmq/dist/cjs/scripts/moveToFinished-14') as BullmqScript).moveToFinished!,
    moveToDelayed: (require('bullmq/dist/cjs/scripts/moveToDelayed-12') as BullmqScript).moveToDelayed!,
  }
  /* eslint-enable @typescript-eslint/no-require-imports */
  return { moveToActive: fusedMoveToActive(scripts), moveToFinished: fusedMoveToFinished(scripts) }
}
