import { ORDERING_FUNCTIONS } from './ordering-scripts'

type BullmqScript = Record<string, { content: string }>

/** A BullMQ script as a Lua function whose KEYS and ARGV are its arguments (they shadow the globals). */
const asFunction = (name: string, script: { content: string }) =>
  `local function ${name}(KEYS, ARGV)\n${script.content}\nend\n`

/**
 * What both fused scripts add around BullMQ's: a job BullMQ has just moved to active (and locked with `token`)
 * takes its session's turn (`acquire`); one whose turn it is not is parked in delayed for `parkMs`, as the
 * processor did with `job.moveToDelayed` (its attempts untouched), and the next job is fetched in its place. The
 * result gets a fifth element that BullMQ ignores: {turn, newest, sessionKey, member}, the turn being `go` or
 * `late` (taken here) or `defer` (the processor reads the event and takes the turn itself, with ACQUIRE: an
 * event without a session, or whose session id is escaped in its JSON, longer than 128 bytes or starting with
 * `sha256:` (its key part is then a hash, `sessionOf`), or that the receiver did not register; a fetch after too
 * many parked jobs).
 */
const TAKE_TURNS = `
local MAX_PARKED = 20

local function useSession(sessionKey, jobId, jobMember)
  pendingKey = prefix .. 'ordering:' .. sessionKey .. ':p'
  stateKey = prefix .. 'ordering:' .. sessionKey .. ':s'
  me, member = jobId, jobMember
end

-- The job's session id and webhookId (its dedup id), read without decoding the envelope; nil when they are not
-- plainly there. A guess until \`turnOf\` finds the job in that session's pending set, where only the receiver's
-- enqueue put it (under the session \`sessionOf\` read); else the processor decides.
local function sessionOfJob(hash)
  local data, webhookId
  for i = 1, #hash, 2 do
    local field = hash[i]
    if field == 'data' then data = hash[i + 1] elseif field == 'deid' then webhookId = hash[i + 1] end
  end
  if not data or not webhookId then return nil end
  local session = string.match(data, '"sessionId"%s*:%s*"([^"\\\\]*)"')
  if not session or session == '' or #session > 128 or string.sub(session, 1, 7) == 'sha256:' then return nil end
  return session, webhookId
end

local function turnOf(jobId, hash, token)
  local session, webhookId = sessionOfJob(hash)
  if not session then return {'defer'} end
  useSession(session, jobId, webhookId .. ' ' .. jobId)
  -- Mostly the session's first pending event: then its score comes with it, in one call.
  local first = rcall('ZRANGE', pendingKey, 0, 0, 'WITHSCORES')
  local isFirst = first[1] == member
  local score = isFirst and first[2] or rcall('ZSCORE', pendingKey, member)
  if not score then return {'defer'} end
  local turn = acquire(score, token, true, isFirst)
  turn[3], turn[4] = session, member
  return turn
end

-- BullMQ's moveToDelayed as \`job.moveToDelayed(now + parkMs, token)\` calls it (skipAttempt, no fetch).
local function park(jobId, token, timestamp, parkMs)
  bullmqMoveToDelayed({prefix .. 'marker', prefix .. 'active', prefix .. 'prioritized', prefix .. 'delayed', prefix .. jobId,
    prefix .. 'events', prefix .. 'meta', prefix .. 'stalled', prefix .. 'wait', prefix .. 'limiter', prefix .. 'paused',
    prefix .. 'pc'},
    {prefix, timestamp, jobId, token, parkMs, '1', '', '0', ''})
end

local function takeTurns(result, token, timestamp, parkMs, fetch)
  for parked = 0, MAX_PARKED do
    if type(result) ~= 'table' or type(result[1]) ~= 'table' or not result[2] then return result end
    local jobId = result[2]
    local turn = {'defer'}
    if parked < MAX_PARKED then turn = turnOf(jobId, result[1], token) end
    if turn[1] ~= 'wait' then
      result[5] = {turn[1], turn[2] or '', turn[3] or '', turn[4] or ''}
      return result
    end
    park(jobId, token, timestamp, parkMs)
    result = fetch()
  end
  return result
end
`

/**
 * BullMQ's moveToActive (KEYS and ARGV[1..3] as BullMQ passes them) that hands on only a job whose session's
 * turn it is (`TAKE_TURNS`). ARGV[4]: the ordering state's time-to-live (ms); ARGV[5]: how long a parked job
 * waits in delayed (ms).
 */
const fusedMoveToActive = (scripts: BullmqScripts) => `${ORDERING_FUNCTIONS}
${asFunction('bullmqMoveToActive', scripts.moveToActive)}
${asFunction('bullmqMoveToDelayed', scripts.moveToDelayed)}
${TAKE_TURNS}
prefix, ttl = ARGV[1], ARGV[4]
local activeArgv = {ARGV[1], ARGV[2], ARGV[3]}
local fetch = function() return bullmqMoveToActive(KEYS, activeArgv) end
return takeTurns(fetch(), cmsgpack.unpack(ARGV[3])['token'], ARGV[2], ARGV[5], fetch)
`

/**
 * BullMQ's moveToFinished (KEYS and ARGV[1..9] as BullMQ passes them), followed by RELEASE for a completed job
 * that held its session's turn (ARGV[10]: its session key part, ARGV[11]: its pending member, both empty
 * otherwise), its next job handed on only in its session's turn (`TAKE_TURNS`). ARGV[12]: the state's
 * time-to-live (ms); ARGV[13]: how long a parked job waits in delayed (ms).
 */
const fusedMoveToFinished = (scripts: BullmqScripts) => `${ORDERING_FUNCTIONS}
${asFunction('bullmqMoveToFinished', scripts.moveToFinished)}
${asFunction('bullmqMoveToActive', scripts.moveToActive)}
${asFunction('bullmqMoveToDelayed', scripts.moveToDelayed)}
${TAKE_TURNS}
prefix, ttl = ARGV[7], ARGV[12]
local token = cmsgpack.unpack(ARGV[8])['token']
local finished = bullmqMoveToFinished(KEYS, ARGV)
-- As RELEASE did before the completion, unless another copy of the job holds its lock (BullMQ's -6): with the
-- lock gone or deleted by the completion, the job leaves its session, which goes on; before the turn of the
-- job the completion fetched, which may be the session's next event.
if ARGV[10] ~= '' and finished ~= -6 then
  useSession(ARGV[10], ARGV[1], ARGV[11])
  leave()
end
local activeKeys = {KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10], KEYS[14]}
local activeArgv = {ARGV[7], ARGV[2], ARGV[8]}
return takeTurns(finished, token, ARGV[2], ARGV[13], function()
  return bullmqMoveToActive(activeKeys, activeArgv)
end)
`

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
