-- Change a table's hosting record (seats, names, generations, status) and, with it,
-- its clock state: compare-and-set on both the game's version and its host version.
--
-- KEYS: 1 game hash (one hash tag with the game's other keys)
-- ARGV: 1 expected version  2 expected host version  3 new host record
--       4 new clock state ("": unchanged)
-- Reply: {"OK", new host version} | {"MISSING", -1} | {"CONFLICT", version, host version}
--
-- A move's commit checks the host version too (commit.lua), so a move decided on the
-- record before this change is decided again: a reissued token, a seat handed to a bot
-- or an abort cannot race a move through.
local game = KEYS[1]
local version = redis.call('HGET', game, 'version')
if not version then
  return {'MISSING', -1}
end
local hv = tonumber(redis.call('HGET', game, 'hv')) or 0
if tonumber(version) ~= tonumber(ARGV[1]) or hv ~= tonumber(ARGV[2]) then
  return {'CONFLICT', tonumber(version), hv}
end
redis.call('HSET', game, 'host', ARGV[3], 'hv', string.format('%d', hv + 1))
if ARGV[4] ~= '' then
  redis.call('HSET', game, 'clock', ARGV[4])
end
return {'OK', hv + 1}
