-- Take or renew a lease (a tournament's directing lease): taken when free, renewed by the
-- process that holds it, refused to anybody else.
--
-- KEYS: 1 lease
-- ARGV: 1 holder  2 lease in milliseconds
-- Reply: 1 the caller holds the lease now, 0 another holder does
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
