-- Replace a finished game's log by one packed element holding the same entries.
--
-- KEYS: 1 game hash  2 move log (one hash tag)
-- ARGV: 1 the game's version (its log's length)  2 the packed log  3 its last entry
-- Reply: 1 packed, 0 left as it was
--
-- The caller read the log and packed it; this writes it back only if it is still that
-- log: the game at that version, the list that long, ending with that entry, not packed.
-- A finished game's log never changes again, so this is a change of encoding only; the
-- log keeps its TTL. A log left unpacked (0, or this never ran) reads the same.
local version = ARGV[1]
if redis.call('HGET', KEYS[1], 'version') ~= version
    or redis.call('LLEN', KEYS[2]) ~= tonumber(version)
    or redis.call('LINDEX', KEYS[2], -1) ~= ARGV[3]
    or string.byte(redis.call('LINDEX', KEYS[2], 0), 1) == 0xC1 then
  return 0
end
local ttl = redis.call('PTTL', KEYS[2])
redis.call('DEL', KEYS[2])
redis.call('RPUSH', KEYS[2], ARGV[2])
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[2], ttl)
end
return 1
