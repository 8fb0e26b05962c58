-- Commit one move: compare-and-set on the game's version, then write everything at once.
--
-- KEYS (one hash tag, so one cluster slot; never built here, always passed in):
--   1 game hash (version, state, meta)   2 move log list
--   3 events stream                      4 moves hash (move key -> record)
-- ARGV:
--   1 expected version   2 new state   3 log entry   4 move key (short)   5 move record
--   6 finished ("1"/"0") 7 finished TTL seconds      8 stream MAXLEN (approximate)
--   9 stream field name for the log entry  10 idle TTL seconds ("0": none)
--  11 the log's chain head after this entry (hex; the caller computes it)
--  12 expected host version (the table's hosting record the move was decided on)
--  13 the clock state after this move ("": unchanged)
--  14 stream entries a finished game keeps (its last ones)
--  15 the move key as text: where a record stored before short keys is (looked up only)
-- Reply: {"DUPLICATE", version, record} | {"MISSING", -1} | {"CONFLICT", version}
--        | {"OK", new version}
local game, log, events, moves = KEYS[1], KEYS[2], KEYS[3], KEYS[4]

-- A repeated move key answers with the original record and writes nothing: the client
-- may be retrying after a lost reply, so this check comes before the version check.
local record = redis.call('HGET', moves, ARGV[4]) or redis.call('HGET', moves, ARGV[15])
if record then
  return {'DUPLICATE', tonumber(redis.call('HGET', game, 'version')) or -1, record}
end

local current = redis.call('HGET', game, 'version')
if not current then
  return {'MISSING', -1}
end
current = tonumber(current)
if current ~= tonumber(ARGV[1]) then
  return {'CONFLICT', current}
end
-- A seat token reissued, a seat handed to a bot, a game aborted since the move was
-- decided: decide again on the new hosting record (the same answer as a stale version).
if (tonumber(redis.call('HGET', game, 'hv')) or 0) ~= tonumber(ARGV[12]) then
  return {'CONFLICT', current}
end

local version = current + 1
local version_text = string.format('%d', version)
-- XADD goes first: with an explicit ID it is the one write that can fail on valid input
-- (ID not above the stream's last), and Redis keeps the writes a failing script already made.
redis.call('XADD', events, 'MAXLEN', '~', ARGV[8], version_text .. '-0', ARGV[9], ARGV[3])
redis.call('HSET', game, 'version', version_text, 'state', ARGV[2], 'head', ARGV[11])
if ARGV[13] ~= '' then
  redis.call('HSET', game, 'clock', ARGV[13])
end
redis.call('RPUSH', log, ARGV[3])
-- A finished game accepts no move, so its idempotency records can only answer retries,
-- and its log answers those as well (each entry holds its seat and client move id):
-- the records go (see move_record.lua). Its stream only has to bring the last moves to
-- watchers still behind: it keeps its last entries, in a stream rebuilt from them, as
-- trimming in place frees no bytes of a partly trimmed node.
local ttl = ARGV[10]
if ARGV[6] == '1' then
  ttl = ARGV[7]
  redis.call('DEL', moves)
  local tail = redis.call('XREVRANGE', events, '+', '-', 'COUNT', ARGV[14])
  redis.call('DEL', events)
  for i = #tail, 1, -1 do
    redis.call('XADD', events, tail[i][1], unpack(tail[i][2]))
  end
else
  redis.call('HSET', moves, ARGV[4], ARGV[5])
end
-- A finished game expires after the finished TTL; a live one after the idle TTL, pushed
-- back by every move, so abandoned tables do not stay forever.
if ttl ~= '0' then
  for i = 1, 4 do
    redis.call('EXPIRE', KEYS[i], ttl)
  end
end
return {'OK', version}
