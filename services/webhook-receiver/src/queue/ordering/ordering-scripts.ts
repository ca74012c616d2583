/**
 * The worker's side of per-session ordering, as Lua run atomically on the queue's slot.
 * KEYS: the session's pending set and state hash, then the queue's delayed, wait, paused, meta, active, marker,
 * events, completed (unused) and failed keys (declared; the functions name them from the prefix, as BullMQ
 * does, so that the fused scripts need not pass them). ARGV: the queue's key prefix (`{pf}:webhooks:`), the state's
 * time-to-live (the dedup TTL, ms), the job's id, its pending member; ACQUIRE also its score and lock token,
 * RELEASE and DEAD the lock token (they do nothing once another copy of the job holds its lock).
 *
 * The lease (`lease`: `<jobId> <token>`) counts only while that job still holds its BullMQ lock with that
 * token: it lapses with the lock, so a killed worker's session is free exactly when BullMQ's stalled-job check
 * hands the job on, and never before. Only the first pending event of a session (`head`) may take it.
 */
export const ORDERING_FUNCTIONS = `
local rcall = redis.call
-- Set by each script before it calls the functions below (the session's keys, the queue's key prefix, the
-- state's time-to-live, the job's place); the queue's keys are named from the prefix as BullMQ names them.
local pendingKey, stateKey, prefix, ttl, me, member

local function jobIdOf(entry) return string.match(entry, ' (%S+)$') end
local function webhookIdOf(entry) return string.match(entry, '^(.*) %S+$') or entry end

local function keep()
  rcall('PEXPIRE', pendingKey, ttl)
  rcall('PEXPIRE', stateKey, ttl)
end

-- What a dead letter says it left behind: the session's events still pending (the first ten, and how many more).
local function wentOnWithout()
  local count = rcall('ZCARD', pendingKey)
  if count == 0 then
    return ' [per-session ordering: its session goes on without it; no later event of the session was waiting]'
  end
  local ids = {}
  for _, entry in ipairs(rcall('ZRANGE', pendingKey, 0, 9)) do ids[#ids + 1] = webhookIdOf(entry) end
  local more = ''
  if count > 10 then more = ' and ' .. (count - 10) .. ' more' end
  return ' [per-session ordering: its session goes on without it; events it held back, handed on now: '
    .. table.concat(ids, ', ') .. more .. ']'
end

-- The job id in a lease (\`<jobId> <token>\`), while that job still holds its lock with the lease's token.
local function holderOf(lease)
  if not lease then return nil end
  local id, token = string.match(lease, '^(%S+) (.*)$')
  if id and rcall('GET', prefix .. id .. ':lock') == token then return id end
  return nil
end

-- A re-delivered copy of this job (its lock lapsed, the stalled check handed it on) holds the lock under another
-- token: that copy runs the event now and leaves the session when it ends, not this stale one.
local function supplanted(token)
  local lock = rcall('GET', prefix .. me .. ':lock')
  return lock and lock ~= token
end

-- The first pending event's job id. Events whose job is gone (removed, or completed) are dropped; one that
-- failed without this worker's last-attempt path (stalled too often) is a dead letter: noted there, marked late.
-- A job is finished when its hash has \`finishedOn\` (BullMQ clears it when it retries a failed job).
local function head()
  for _ = 1, 100 do
    local first = rcall('ZRANGE', pendingKey, 0, 0)[1]
    if not first then return nil end
    if first == member then return me end -- this job, which is running: there
    local id = jobIdOf(first)
    local jobKey = prefix .. id
    local job = rcall('HMGET', jobKey, 'name', 'finishedOn')
    if job[1] and not job[2] then return id end
    rcall('ZREM', pendingKey, first)
    if job[1] and rcall('ZSCORE', prefix .. 'failed', id) then
      rcall('HSET', stateKey, 'late:' .. id, 1)
      rcall('HSET', jobKey, 'failedReason', (rcall('HGET', jobKey, 'failedReason') or '') .. wentOnWithout())
    end
  end
  local first = rcall('ZRANGE', pendingKey, 0, 0)[1]
  return first and jobIdOf(first)
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


-- ACQUIRE's body (below), also run inside BullMQ's move to active (\`fusedMoveToActive\`), which may know
-- the job is \`registered\` in the pending set already, or its first event (\`first\`).
local function acquire(score, token, registered, first)
  if not registered and rcall('ZADD', pendingKey, 'NX', score, member) == 1 then rcall('PEXPIRE', pendingKey, ttl) end
  local state = rcall('HMGET', stateKey, 'lease', 'newest', 'late:' .. me, 'park:' .. me)
  local holder = holderOf(state[1])
  if (holder and holder ~= me) or (not first and head() ~= me) then
    rcall('HSET', stateKey, 'park:' .. me, 1)
    rcall('PEXPIRE', stateKey, ttl)
    return {'wait'}
  end
  local newest = state[2]
  local late = state[3] or (newest and tonumber(score) < tonumber(newest))
  if not newest or tonumber(score) > tonumber(newest) then newest = score end
  rcall('HSET', stateKey, 'lease', me .. ' ' .. token, 'newest', newest)
  if state[3] or state[4] then rcall('HDEL', stateKey, 'park:' .. me, 'late:' .. me) end
  rcall('PEXPIRE', stateKey, ttl)
  if late then return {'late', newest} end
  return {'go', newest}
end

-- RELEASE's body (below), also run inside BullMQ's move to completed (\`fusedMoveToFinished\`), which
-- knows whether another copy of the job holds its lock (\`supplanted\`); DEAD's end too. The job leaves the
-- session, drops its lease (if still its own) and hands on the next event if it was parked waiting for its turn,
-- the two fields read and deleted at once.
local function leave()
  rcall('ZREM', pendingKey, member)
  local nextId = head()
  local parkField = nextId and ('park:' .. nextId) or 'lease'
  local state = rcall('HMGET', stateKey, 'lease', parkField)
  local fields = {}
  if state[1] and string.sub(state[1], 1, #me + 1) == me .. ' ' then fields[#fields + 1] = 'lease' end
  local parked = nextId and state[2]
  if parked then fields[#fields + 1] = parkField end
  if #fields > 0 then rcall('HDEL', stateKey, unpack(fields)) end
  if parked then promote(nextId) end
  return 1
end

local function release(token)
  if supplanted(token) then return 0 end
  return leave()
end
`

/** The functions' state from the standalone scripts' KEYS and ARGV (see the top of this file). */
const COMMON =
  ORDERING_FUNCTIONS +
  `
pendingKey, stateKey = KEYS[1], KEYS[2]
prefix, ttl, me, member = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
`

/**
 * The job may run when no other job holds the session and it is the first pending event: it takes the lease,
 * and learns whether it is late (older than an event already handed on, or a dead letter replayed). Otherwise
 * it is marked parked (`park:<id>`), and the caller moves it to delayed. A job the receiver did not register
 * (a replay, a receiver with ordering off) joins the pending set here.
 * Returns {'go', newest} | {'late', newest} | {'wait'}.
 */
export const ACQUIRE = COMMON + `return acquire(ARGV[5], ARGV[6])`

/**
 * Run after the job was moved to delayed: if its turn came meanwhile (the holder finished between ACQUIRE and
 * the move, and found it not yet delayed), it goes back to wait now rather than after its parking delay.
 */
export const PARKED =
  COMMON +
  `
if not holderOf(rcall('HGET', stateKey, 'lease')) and head() == me then
  rcall('HDEL', stateKey, 'park:' .. me)
  promote(me)
  return 1
end
return 0`

/**
 * The job's handler succeeded: it leaves the session, which hands on its next event. Both keys already expire
 * (the enqueue and ACQUIRE set their time-to-live); this only removes.
 */
export const RELEASE = COMMON + `return release(ARGV[5])`

/**
 * The job's last attempt failed: it leaves the session (a later replay of it is late), the session goes on,
 * and the note of what went on without it is returned for the dead letter.
 */
export const DEAD =
  COMMON +
  `
if supplanted(ARGV[5]) then return '' end
rcall('ZREM', pendingKey, member)
rcall('HSET', stateKey, 'late:' .. me, 1)
head()
local note = wentOnWithout()
leave()
keep()
return note`
