-- Change a table's hosting record (seats, names, generations, status) and, with it,
-- its clock state: compare-and-set on both the game's version and its host version.
--
-- KEYS: 1 game hash  2 its events stream (one hash tag with the game's other keys)
-- ARGV: 1 expected version  2 expected host version  3 new host record
--       4 new clock state ("": unchanged)  5 stream MAXLEN (approximate)
--       6 stream field name of a host change
--
-- The change is announced on the events stream as entry <version>-<new host version>
-- (a move's entries are <version>-0, so the IDs keep rising): watchers push the new
-- record as a snapshot of the same version (service.feed).
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
local events = KEYS[2]
local next_hv = string.format('%d', hv + 1)
redis.call('XADD', events, 'MAXLEN', '~', ARGV[5], version .. '-' .. next_hv, ARGV[6], next_hv)
local ttl = redis.call('PTTL', game)
if ttl > 0 then
  redis.call('PEXPIRE', events, ttl)
end
redis.call('HSET', game, 'host', ARGV[3], 'hv', next_hv)
if ARGV[4] ~= '' then
  redis.call('HSET', game, 'clock', ARGV[4])
end
return {'OK', hv + 1}
