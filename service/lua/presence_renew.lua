-- Renew many presence leases in one call (service.presence's renewer): each lease is set
-- to the new expiry, and each hash lives as long as its newest lease.
--
-- KEYS: the games' presence hashes (on a Redis Cluster, of one hash slot)
-- ARGV: 1 the new expiry, in Unix ms  1+i the lease names of KEYS[i], space-separated
-- Reply: the number of leases set
local expiry = ARGV[1]
local renewed = 0
for i, key in ipairs(KEYS) do
  for lease in string.gmatch(ARGV[i + 1], '%S+') do
    redis.call('HSET', key, lease, expiry)
    renewed = renewed + 1
  end
  redis.call('PEXPIREAT', key, expiry)
end
return renewed
