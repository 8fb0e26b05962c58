-- Give a lease up, if the caller still holds it (a lapsed lease may have a new holder).
--
-- KEYS: 1 lease
-- ARGV: 1 holder
-- Reply: 1 released, 0 not the caller's
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
