-- Create a game at version 0 unless its hash exists.
--
-- KEYS: 1 game hash  2 move log  3 events stream  4 moves hash (one hash tag)
-- ARGV: 1 state  2 meta  3 idle TTL seconds ("0": none)
--       4 host record ("": none)  5 clock state ("": none)
-- Reply: 1 created, 0 already exists
--
-- Keys with the same TTL do not vanish at the same instant, so a finished game's log,
-- stream or moves may outlive its hash for a moment. They are dropped here: a new game
-- must not inherit old moves, and its first event ID 1-0 must not collide with an old stream.
-- HSET comes before DEL: it is the write a full Redis refuses, and it refuses a script's
-- write only while the script has written nothing, so a full store creates nothing.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'version', '0', 'state', ARGV[1], 'meta', ARGV[2], 'hv', '0')
if ARGV[4] ~= '' then
  redis.call('HSET', KEYS[1], 'host', ARGV[4])
end
if ARGV[5] ~= '' then
  redis.call('HSET', KEYS[1], 'clock', ARGV[5])
end
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
if ARGV[3] ~= '0' then
  redis.call('EXPIRE', KEYS[1], ARGV[3])
end
return 1
