-- Admit one thing under a caller's quotas, or refuse it and write nothing.
--
-- KEYS (one hash tag, the caller's, so one cluster slot):
--   1 creates counter (a fixed window)   2 live set (sorted set: id -> expiry, ms)
--   3 weights of the live ids (hash: id -> weight, e.g. a tournament's bots)
-- ARGV:
--   1 now (ms)   2 window (ms)   3 creates per window (0: this is no create)
--   4 live ids at most (0: unlimited)   5 the id   6 the id's expiry (ms)
--   7 the id's weight   8 weight over the live ids at most (0: unlimited)
-- Reply: {"OK"} | {"CREATES" | "LIVE" | "WEIGHT", milliseconds until it may change}
--
-- Lapsed ids (a crashed replica's, or never released) no longer count; they are dropped
-- only when something is admitted, so a refusal leaves every key as it was.
local now, window = tonumber(ARGV[1]), tonumber(ARGV[2])
local creates, live_limit = tonumber(ARGV[3]), tonumber(ARGV[4])
local id, expiry = ARGV[5], ARGV[6]
local weight, weight_limit = tonumber(ARGV[7]), tonumber(ARGV[8])

if creates > 0 then
  local count = tonumber(redis.call('GET', KEYS[1]) or '0')
  if count >= creates then
    local ttl = redis.call('PTTL', KEYS[1])
    return {'CREATES', ttl > 0 and ttl or window}
  end
end

local tracked = live_limit > 0 or weight_limit > 0
if tracked then
  local first = redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. now, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
  local wait = first[2] and math.max(1, tonumber(first[2]) - now) or 1
  if live_limit > 0 and redis.call('ZCOUNT', KEYS[2], '(' .. now, '+inf') >= live_limit then
    return {'LIVE', wait}
  end
  if weight_limit > 0 then
    local total = weight
    for _, other in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. now, '+inf')) do
      total = total + tonumber(redis.call('HGET', KEYS[3], other) or '0')
    end
    if total > weight_limit then
      return {'WEIGHT', wait}
    end
  end
end

if creates > 0 and redis.call('INCR', KEYS[1]) == 1 then
  redis.call('PEXPIRE', KEYS[1], window)
end
if tracked then
  if weight_limit > 0 then
    for _, lapsed in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)) do
      redis.call('HDEL', KEYS[3], lapsed)
    end
  end
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  redis.call('ZADD', KEYS[2], expiry, id)
  if weight > 0 then
    redis.call('HSET', KEYS[3], id, weight)
  end
  -- The set (and weights) go when their last id lapses.
  local last = redis.call('ZRANGE', KEYS[2], -1, -1, 'WITHSCORES')
  redis.call('PEXPIREAT', KEYS[2], last[2])
  if redis.call('EXISTS', KEYS[3]) == 1 then
    redis.call('PEXPIREAT', KEYS[3], last[2])
  end
end
return {'OK'}
