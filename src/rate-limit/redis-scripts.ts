// The Lua scripts of the Redis rate-limit store (redis-store.ts), one per operation of RateLimitStore.

// The scripts, one per operation, follow the mapping described on RateLimitStore. Each runs whole on the
// server, so no other client's command falls between its read and its write: that is what keeps a fleet
// from overspending a balance. Times and limits come in ARGV as the caller's numbers; scores come back
// as Redis prints them (full precision), and the arithmetic on them is done in TypeScript, exactly as the
// in-process store does it.

/** KEYS: the window. ARGV: limit, now − windowMs, now, call id, TTL. */
export const TAKE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
  count = count + 1
  allowed = 1
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2] or ARGV[3]
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return { allowed, count, oldest }
`;

/**
 * The windows `keys`: `args` holds now − windowMs, now, call id, TTL, then one limit per key. Returns
 * { allowed, then room, count, oldest for each window }.
 */
const TAKE_ALL_FUNCTION = `
local function take_all(keys, args)
  local counts = {}
  local allowed = 1
  for i = 1, #keys do
    redis.call('ZREMRANGEBYSCORE', keys[i], '-inf', args[1])
    counts[i] = redis.call('ZCARD', keys[i])
    if counts[i] >= tonumber(args[4 + i]) then allowed = 0 end
  end
  local result = { allowed }
  for i = 1, #keys do
    local room = 0
    if counts[i] < tonumber(args[4 + i]) then room = 1 end
    if allowed == 1 then
      redis.call('ZADD', keys[i], args[2], args[3])
      counts[i] = counts[i] + 1
    end
    local oldest = redis.call('ZRANGE', keys[i], 0, 0, 'WITHSCORES')[2] or args[2]
    redis.call('PEXPIRE', keys[i], args[4])
    table.insert(result, room)
    table.insert(result, counts[i])
    table.insert(result, oldest)
  end
  return result
end
`;

/** KEYS: the windows. ARGV: now − windowMs, now, call id, TTL, then one limit per key. */
export const TAKE_ALL = `${TAKE_ALL_FUNCTION} return take_all(KEYS, ARGV)`;

/**
 * KEYS: the lease set of the lease to end, then the windows. ARGV: its token, then those of TAKE_ALL.
 * The lease is removed (as RELEASE without keep) before the windows are asked, admitted or not.
 */
export const TAKE_ALL_ENDING = `${TAKE_ALL_FUNCTION}
redis.call('ZREM', KEYS[1], ARGV[1])
return take_all({ unpack(KEYS, 2) }, { unpack(ARGV, 2) })
`;

/**
 * The list `key`: limit, now − windowMs, now, TTL. With no room at all (limit 0) nothing is kept, as in
 * the in-process store. Returns { allowed, count, oldest }.
 */
const HIT_FUNCTION = `
local function hit(key, limit, cutoff, now, ttl)
  limit = tonumber(limit)
  if limit <= 0 then
    redis.call('DEL', key)
    return { 0, 0, now }
  end
  cutoff = tonumber(cutoff)
  while true do
    local last = redis.call('LINDEX', key, -1)
    if not last or tonumber(last) > cutoff then break end
    redis.call('RPOP', key)
  end
  local allowed = 0
  if not redis.call('LINDEX', key, limit - 1) then allowed = 1 end
  redis.call('LPUSH', key, now)
  redis.call('LTRIM', key, 0, limit - 1)
  redis.call('PEXPIRE', key, ttl)
  return { allowed, redis.call('LLEN', key), redis.call('LINDEX', key, -1) }
end
`;

/** KEYS: the list. ARGV: limit, now − windowMs, now, TTL. */
export const HIT = `${HIT_FUNCTION} return hit(KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4])`;

/** KEYS: the window. ARGV: now − windowMs, now, call id, TTL. */
export const ADD = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
local count = redis.call('ZCARD', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return count
`;

/**
 * The window `key`: threshold, now − windowMs, TTL. Returns { 0 } below the threshold, else { 1, score of
 * the call whose leaving brings the count below it } ({ 1 } alone when there is none).
 */
const WAIT_BELOW_FUNCTION = `
local function wait_below(key, threshold, cutoff, ttl)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', cutoff)
  threshold = tonumber(threshold)
  local count = redis.call('ZCARD', key)
  redis.call('PEXPIRE', key, ttl)
  if count < threshold then return { 0 } end
  if threshold <= 0 then return { 1 } end
  return { 1, redis.call('ZRANGE', key, -threshold, -threshold, 'WITHSCORES')[2] }
end
`;

/** KEYS: the window. ARGV: threshold, now − windowMs, TTL. */
export const WAIT_BELOW = `${WAIT_BELOW_FUNCTION} return wait_below(KEYS[1], ARGV[1], ARGV[2], ARGV[3])`;

/** The lease set `key`: now, limit, now + leaseMs, token. Returns { acquired, held }. */
const ACQUIRE_FUNCTION = `
local function acquire(key, now, limit, expiry, token)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  local held = redis.call('ZCARD', key)
  if held >= tonumber(limit) then return { 0, held } end
  redis.call('ZADD', key, expiry, token)
  local latest = tonumber(redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')[2])
  redis.call('PEXPIRE', key, math.max(1, math.ceil(latest - tonumber(now))))
  return { 1, held + 1 }
end
`;

/** KEYS: the lease set. ARGV: now, limit, now + leaseMs, token. */
export const ACQUIRE = `${ACQUIRE_FUNCTION} return acquire(KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4])`;

/**
 * KEYS: one per step. ARGV: now, then four a step: its operation (`w` waitBelow, `h` hit, `a` acquire)
 * and that operation's arguments after the key and `now` (waitBelow: threshold, now − windowMs, TTL;
 * hit: limit, now − windowMs, TTL; acquire: limit, now + leaseMs, token). Returns the answers of the steps
 * that ran, in order: it stops after the first that refuses.
 */
export const ADMIT_IN_ORDER = `${WAIT_BELOW_FUNCTION}${HIT_FUNCTION}${ACQUIRE_FUNCTION}
local now = ARGV[1]
local results = {}
for i = 1, #KEYS do
  local op, a, b, c = ARGV[4 * i - 2], ARGV[4 * i - 1], ARGV[4 * i], ARGV[4 * i + 1]
  local result, refused
  if op == 'w' then
    result = wait_below(KEYS[i], a, b, c)
    refused = result[1] == 1
  elseif op == 'h' then
    result = hit(KEYS[i], a, b, now, c)
    refused = result[1] == 0
  else
    result = acquire(KEYS[i], now, a, b, c)
    refused = result[1] == 0
  end
  table.insert(results, result)
  if refused then break end
end
return results
`;

/**
 * KEYS: the lease set. ARGV: token, keepUntil ('' for none), TTL of a new key. A kept lease lengthens
 * the key's remaining life by as much as it outlives the latest lease, so the key never expires before
 * any of its leases, whatever the offset between the callers' clocks and the server's.
 */
export const RELEASE = `
if ARGV[2] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return 0
end
local keepUntil = tonumber(ARGV[2])
local latest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')[2]
local remaining = redis.call('PTTL', KEYS[1])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
local ttl = tonumber(ARGV[3])
if latest and remaining > 0 then
  ttl = math.max(ttl, remaining + math.max(0, keepUntil - tonumber(latest)))
end
redis.call('PEXPIRE', KEYS[1], math.max(1, math.ceil(ttl)))
return 0
`;
