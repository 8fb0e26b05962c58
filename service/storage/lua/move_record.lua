-- The idempotency record of one move key, or the log that answers for it.
--
-- KEYS: 1 moves hash  2 move log (one hash tag)
-- ARGV: 1 move key (short)  2 the move key as text (a record stored before short keys)
-- Reply: {"RECORD", record} | {"NONE"} | {"LOG", {entry, ...}}
--
-- A game with a log and no moves hash had its records dropped (commit.lua drops them when
-- the game finishes): its whole log comes back, and the caller finds the move key there.
-- One script, so the two reads see the same game.
local record = redis.call('HGET', KEYS[1], ARGV[1]) or redis.call('HGET', KEYS[1], ARGV[2])
if record then
  return {'RECORD', record}
end
if redis.call('EXISTS', KEYS[1]) == 0 and redis.call('EXISTS', KEYS[2]) == 1 then
  return {'LOG', redis.call('LRANGE', KEYS[2], 0, -1)}
end
return {'NONE'}
