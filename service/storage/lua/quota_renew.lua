-- Push back the expiry of ids a caller still holds (open watch streams), no others.
--
-- KEYS (one hash tag): 1 live set
-- ARGV: 1 the new expiry (ms)   2.. the ids
-- Reply: how many were still there
local renewed = 0
for i = 2, #ARGV do
  renewed = renewed + redis.call('ZADD', KEYS[1], 'XX', 'CH', ARGV[1], ARGV[i])
end
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if last[2] then
  redis.call('PEXPIREAT', KEYS[1], last[2])
end
return renewed
