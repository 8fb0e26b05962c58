-- Create a tournament at version 0 unless its record exists.
--
-- KEYS (one hash tag): 1 record hash (version, record)  2 events stream
-- ARGV: 1 record  2 TTL seconds ("0": none)  3 stream MAXLEN (approximate)
-- Reply: 1 created, 0 the id exists
--
-- A stream left over from an expired tournament of the same id is dropped before the
-- first entry 0-1 is added, so the two do not collide. HSET comes first: it is the write a
-- full Redis refuses, and only while the script has written nothing (see create.lua).
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'version', '0', 'record', ARGV[1])
redis.call('DEL', KEYS[2])
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[3], '0-1', 'v', '0')
if ARGV[2] ~= '0' then
  redis.call('EXPIRE', KEYS[1], ARGV[2])
  redis.call('EXPIRE', KEYS[2], ARGV[2])
end
return 1
