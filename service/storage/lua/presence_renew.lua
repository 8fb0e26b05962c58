-- Set or renew presence leases in one call (service.presence's renewer, and one stream's
-- own lease): each lease is set to the new expiry, and each hash lives as long as its
-- longest lease (a lease with an earlier expiry never shortens it, so it never takes
-- another seat's lease with it).
--
-- KEYS: the games' presence hashes (on a Redis Cluster, of one hash slot)
-- ARGV: 1 the new expiry, in Unix ms  1+i the lease names of KEYS[i], space-separated
-- Reply: the number of leases set
local expiry = ARGV[1]
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local renewed = 0
for i, key in ipairs(KEYS) do
  for lease in string.gmatch(ARGV[i + 1], '%S+') do
    redis.call('HSET', key, lease, expiry)
    renewed = renewed + 1
  end
  local left = redis.call('PTTL', key)  -- -1: no expiry yet (a new hash)
  if left < 0 or now + left < tonumber(expiry) then
    redis.call('PEXPIREAT', key, expiry)
  end
end
return renewed
