-- Claim the due members of one deadline shard: each is leased to the caller by moving its
-- score `lease` ms ahead, so a claimer that dies before it dropped the member leaves it
-- to come back due once the lease runs out, for any firer to claim again.
--
-- KEYS: 1 the shard (a sorted set: member "<version>:<host version>:<game id>", score
--       the deadline in Unix ms)
-- ARGV: 1 now (Unix ms)  2 lease (ms)  3 most members to claim
-- Reply: the claimed members, earliest deadline first
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
local until_ms = tonumber(ARGV[1]) + tonumber(ARGV[2])
for _, member in ipairs(due) do
  redis.call('ZADD', KEYS[1], 'XX', until_ms, member)
end
return due
