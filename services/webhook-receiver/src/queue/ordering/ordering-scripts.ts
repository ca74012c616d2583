import { JOB_FIELDS } from './session-keys'

/**
 * The usual take, written out where it runs (no closure made; `ORDERING_FUNCTIONS` in scope): the job is first
 * in its session's pending set (`!newest -` maybe before it: nothing running or parked), and its timestamp
 * (`score`) is known: one unscored read and one write, whose count of changed entries says whether the newest
 * timestamp moved (it did not: the job is late, or a tie). In scope: `late`, `score` (nil: unknown), and
 * `taken` and `newest`, set here to 'go' | 'late' and the session's newest timestamp when the take is settled.
 */
export const TAKE_TURN_FAST = `
  if score then
    local firsts = rcall('ZRANGE', pendingKey, 0, 1)
    if firsts[1] == member or (firsts[1] == NEWEST and firsts[2] == member) then
      if rcall('ZADD', pendingKey, 'GT', 'CH', RUN, '!run ' .. member, score, NEWEST) == 2 and not late then
        taken, newest = 'go', score
      else
        newest = rcall('ZSCORE', pendingKey, NEWEST)
        if late or tonumber(score) < tonumber(newest) then taken = 'late' else taken = 'go' end
      end
    end
  end`

/** The job leaves its session; `handOn` (how the script reaches the functions' `handOn`) runs if events wait parked. */
const leaveExactly = (handOn: string) => `
  rcall('ZREM', pendingKey, member, '!run ' .. member, '!park ' .. member, SOME_PARKED)
  if rcall('ZCOUNT', pendingKey, PARK, PARK) > 0 then ${handOn} end`

/**
 * The worker's side of per-session ordering, as Lua run atomically on the queue's slot.
 * KEYS: the session's pending set, then the queue's delayed, wait, paused, meta, active, marker, events,
 * completed (unused) and failed keys (declared; the functions name them from the prefix, as BullMQ does, so that
 * the fused scripts need not pass them). ARGV: the queue's key prefix (`{pf}:webhooks:`), the set's time-to-live
 * (the dedup TTL, ms), the job's id, its pending member; ACQUIRE also its score and lock token, RELEASE and DEAD
 * the lock token (they do nothing once another copy of the job holds its lock).
 *
 * A session's whole state is its pending set, so that a job usually takes its turn in two commands (the set read
 * once and written once) and hands it on in one, none of whose replies is a score (formatting a double is a
 * microsecond of Redis's time). Its entries, by score:
 * - `!run <member>` (RUN): the event whose turn it is, from its take until it leaves (completed, or dead-lettered).
 *   It keeps the turn through its retries, and through its worker's crash until BullMQ's stalled-job check hands
 *   it on: no other event of the session runs meanwhile.
 * - `!park <member>` (PARK): an event waiting in delayed for its turn, which the event before it promotes.
 * - `!parked` (SOME_PARKED, between the two): there whenever a `!park` entry is, so that the usual hand-on (one
 *   `ZREM`, whose count says whether it removed it) learns whether any event waits without counting them; it may
 *   outlive them (a promote by PARKED, a gone job dropped), which costs the next hand-on a count.
 * - `<webhookId> <jobId>` (the event's signed timestamp, ms): the events not yet handed on for good.
 * - `!newest -` (the timestamp): the newest signed timestamp handed on, among the events (told apart by name).
 * Timestamps (years 0000-9999) stay within ±2^49 ms, so the bands never meet and every score is an exact double.
 * The receiver writes an event's session key part and timestamp into its job's hash (`pfs`, `pfts`), where
 * BullMQ's fetch hands them to the fused scripts; a job that is late whatever its timestamp (a replayed dead
 * letter) carries `pflate` there.
 */
export const ORDERING_FUNCTIONS = `
local rcall = redis.call
-- Set by each script before it calls the functions below (the session's pending set, the queue's key prefix,
-- the set's time-to-live, the job's place); the queue's keys are named from the prefix as BullMQ names them.
local pendingKey, prefix, ttl, me, member

-- \`!newest -\`: a worker of the earlier format (two keys per session), met during a rolling update, reads it as an
-- event whose job is gone and drops it, where \`!newest\` alone would fail its script.
local RUN, PARK, NEWEST = '-4503599627370496', '-2251799813685248', '!newest -'
local SOME_PARKED_SCORE, SOME_PARKED = '-3377699720527872', '!parked'
local EVENTS = '(-562949953421312'
local LATE = '${JOB_FIELDS.late}'

-- The functions, made by \`ORDERING\` on a script's first need of them.
local made
`

/**
 * The functions (a table: `acquire`, `leave`, `release`, `handOn`…) as a Lua expression, made on a script's
 * first need of them: each closure made costs a script call a fifth to a third of a command, and one made at the
 * top of a script is made on every call. Written out at each place of need (a function literal becomes a closure
 * only where it runs), so the usual take and hand-on (`TAKE_TURN_FAST`, `LEAVE_FAST`) make none.
 */
export const ORDERING = `(made or (function()
  local function jobIdOf(entry) return string.match(entry, ' (%S+)$') end
  local function webhookIdOf(entry) return string.match(entry, '^(.*) %S+$') or entry end

  -- The first events pending (up to \`count\`), \`!newest\` left out.
  local function firstEvents(count)
    local events = {}
    for _, entry in ipairs(rcall('ZRANGEBYSCORE', pendingKey, EVENTS, '+inf', 'LIMIT', 0, count + 1)) do
      if entry ~= NEWEST and #events < count then events[#events + 1] = entry end
    end
    return events
  end

  -- What a dead letter says it left behind: the session's events still pending (the first ten, and how many more).
  local function wentOnWithout()
    local count = rcall('ZCOUNT', pendingKey, EVENTS, '+inf')
    if rcall('ZSCORE', pendingKey, NEWEST) then count = count - 1 end
    if count == 0 then
      return ' [per-session ordering: its session goes on without it; no later event of the session was waiting]'
    end
    local ids = {}
    for _, entry in ipairs(firstEvents(10)) do ids[#ids + 1] = webhookIdOf(entry) end
    local more = ''
    if count > 10 then more = ' and ' .. (count - 10) .. ' more' end
    return ' [per-session ordering: its session goes on without it; events it held back, handed on now: '
      .. table.concat(ids, ', ') .. more .. ']'
  end

  -- A re-delivered copy of this job (its lock lapsed, the stalled check handed it on) holds the lock under another
  -- token: that copy runs the event now and leaves the session when it ends, not this stale one.
  local function supplanted(token)
    local lock = rcall('GET', prefix .. me .. ':lock')
    return lock and lock ~= token
  end

  -- Whether an event's job will not run again (removed, completed, or failed without this worker's DEAD: stalled
  -- too often); if so it leaves the session, and a failed one is a dead letter: noted there, marked late.
  -- A job is finished when its hash has \`finishedOn\` (BullMQ clears it when it retries a failed job).
  local function dropIfGone(entry)
    local id = jobIdOf(entry)
    local jobKey = prefix .. id
    local job = rcall('HMGET', jobKey, 'name', 'finishedOn')
    if job[1] and not job[2] then return false end
    rcall('ZREM', pendingKey, entry, '!run ' .. entry, '!park ' .. entry)
    if job[1] and rcall('ZSCORE', prefix .. 'failed', id) then
      rcall('HSET', jobKey, LATE, 1, 'failedReason', (rcall('HGET', jobKey, 'failedReason') or '') .. wentOnWithout())
    end
    return true
  end

  -- The event whose turn it is (its member): the running one, else the first pending one, once events whose job
  -- will not run again are dropped; nil when none is left.
  local function turnHolder()
    for _ = 1, 100 do
      local entry = rcall('ZRANGEBYSCORE', pendingKey, RUN, RUN, 'LIMIT', 0, 1)[1]
      if entry then entry = string.sub(entry, 6)
      else
        entry = firstEvents(1)[1]
        if not entry then return nil end
      end
      if entry == member or not dropIfGone(entry) then return entry end
    end
    return nil
  end

  -- BullMQ's promote (commands/promote-9.lua) for a job of priority 0, at the head of wait: it has waited its turn.
  local function promote(id)
    if rcall('ZREM', prefix .. 'delayed', id) == 0 then return end
    local attributes = rcall('HMGET', prefix .. 'meta', 'paused', 'concurrency')
    local target, pausedOrMaxed = prefix .. 'wait', false
    if attributes[1] then
      target, pausedOrMaxed = prefix .. 'paused', true
    elseif attributes[2] then
      pausedOrMaxed = rcall('LLEN', prefix .. 'active') >= tonumber(attributes[2])
    end
    rcall('RPUSH', target, id)
    if not pausedOrMaxed then rcall('ZADD', prefix .. 'marker', 0, '0') end
    rcall('XADD', prefix .. 'events', '*', 'event', 'waiting', 'jobId', id, 'prev', 'delayed')
    rcall('HSET', prefix .. id, 'delay', 0)
  end

  -- An event waits parked: the one whose turn it now is goes back to wait; \`!parked\` stays while others wait.
  local function handOn()
    local holder = turnHolder()
    if holder and rcall('ZREM', pendingKey, '!park ' .. holder) == 1 then promote(jobIdOf(holder)) end
    if rcall('ZCOUNT', pendingKey, PARK, PARK) > 0 then rcall('ZADD', pendingKey, SOME_PARKED_SCORE, SOME_PARKED) end
  end

  -- The job takes the turn (its \`!run\` entry, and \`!newest\` if it is newer) and learns whether it is late: older
  -- than an event already handed on, or marked late (\`late\`). Returns {'go' | 'late', newest}.
  local function take(score, late)
    local newest = rcall('ZSCORE', pendingKey, NEWEST)
    rcall('ZADD', pendingKey, 'GT', RUN, '!run ' .. member, score, NEWEST)
    if not newest or tonumber(score) > tonumber(newest) then newest = score end
    if late or tonumber(score) < tonumber(newest) then return {'late', newest} end
    return {'go', newest}
  end

  -- ACQUIRE's body (below), also BullMQ's move to active's (\`fusedMoveToActive\`) past \`TAKE_TURN_FAST\`: the job
  -- takes the turn if it is its own, else it is parked (its \`!park\` entry; the caller moves it to delayed).
  -- \`late\`: the job carries \`pflate\`; \`score\`: its timestamp, when its hash has it. Returns {'go' | 'late',
  -- newest} | {'wait'} | {'defer'} (not in the set: the processor's ACQUIRE registers it).
  local function acquire(late, score)
    local taken, newest
  ${TAKE_TURN_FAST}
    if taken then return {taken, newest} end
    score = rcall('ZSCORE', pendingKey, member)
    if not score then return {'defer'} end
    if turnHolder() ~= member then
      rcall('ZADD', pendingKey, PARK, '!park ' .. member, SOME_PARKED_SCORE, SOME_PARKED)
      return {'wait'}
    end
    rcall('ZREM', pendingKey, '!park ' .. member)
    return take(score, late)
  end

  -- RELEASE's body (below), also run inside BullMQ's move to completed (\`fusedMoveToFinished\`), which knows
  -- whether another copy of the job holds its lock; DEAD's end too. The job leaves the session; if events wait
  -- parked, the one whose turn it now is goes back to wait.
  local function leave()
  ${leaveExactly('handOn()')}
    return 1
  end

  local function release(token)
    if supplanted(token) then return 0 end
    return leave()
  end

  made = { acquire = acquire, leave = leave, release = release, supplanted = supplanted, turnHolder = turnHolder,
    wentOnWithout = wentOnWithout, handOn = handOn, promote = promote }
  return made
end)())`

/**
 * The usual hand-on, inside BullMQ's move to completed (`fusedMoveToFinished`), for a job that took its turn there
 * (its entry and `!run` entry are in the set, its `!park` entry is not): one `ZREM`, which removes two entries
 * unless `!parked` was there too; only then are the parked events counted, and the next one handed on.
 */
export const LEAVE_FAST = `
  if rcall('ZREM', pendingKey, member, '!run ' .. member, '!park ' .. member, SOME_PARKED) ~= 2 then
    if rcall('ZCOUNT', pendingKey, PARK, PARK) > 0 then ${ORDERING}.handOn() end
  end`

/** The functions' state from the standalone scripts' KEYS and ARGV (see `ORDERING_FUNCTIONS`). */
const COMMON =
  ORDERING_FUNCTIONS +
  `
pendingKey = KEYS[1]
prefix, ttl, me, member = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
`

/**
 * The job may run when it is its session's turn holder (running already, after a crash or a retry) or, with none,
 * its first pending event: it takes the turn, and learns whether it is late. Otherwise it is parked, and the caller
 * moves it to delayed. A job the receiver did not register (a replay, a receiver with ordering off) joins the
 * pending set here. Returns {'go', newest} | {'late', newest} | {'wait'}.
 */
export const ACQUIRE =
  COMMON +
  `
if rcall('ZADD', pendingKey, 'NX', ARGV[5], member) == 1 then rcall('PEXPIRE', pendingKey, ttl) end
return ${ORDERING}.acquire(rcall('HGET', prefix .. me, LATE) ~= false)`

/**
 * Run after the job was moved to delayed: if its turn came meanwhile (the holder finished between ACQUIRE and
 * the move, and found it not yet delayed), it goes back to wait now rather than after its parking delay.
 */
export const PARKED =
  COMMON +
  `
local o = ${ORDERING}
if o.turnHolder() == member and rcall('ZREM', pendingKey, '!park ' .. member) == 1 then
  o.promote(me)
  return 1
end
return 0`

/** The job's handler succeeded: it leaves the session, which hands on its next event. */
export const RELEASE = COMMON + `return ${ORDERING}.release(ARGV[5])`

/**
 * The job's last attempt failed: it leaves the session (marked late, for its replay), the session goes on, and
 * the note of what went on without it is returned for the dead letter.
 */
export const DEAD =
  COMMON +
  `
local o = ${ORDERING}
if o.supplanted(ARGV[5]) then return '' end
rcall('HSET', prefix .. me, LATE, 1)
o.leave()
-- Events whose job will not run again are dropped before the note names what went on.
o.turnHolder()
local note = o.wentOnWithout()
rcall('PEXPIRE', pendingKey, ttl)
return note`
