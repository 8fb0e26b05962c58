-- Write a tournament record: compare-and-set on its version, as commit.lua does for a game.
--
-- KEYS (one hash tag): 1 record hash (version, record)  2 events stream
-- ARGV: 1 expected version  2 record  3 TTL seconds ("0": none)  4 stream MAXLEN
-- Reply: {"MISSING", -1} | {"CONFLICT", current version} | {"OK", new version}
local current = redis.call('HGET', KEYS[1], 'version')
if not current then
  return {'MISSING', -1}
end
current = tonumber(current)
if current ~= tonumber(ARGV[1]) then
  return {'CONFLICT', current}
end
local version = current + 1
local version_text = string.format('%d', version)
-- The stream entry <version>-1 is what watchers block on; it is written in the same step
-- as the record, so nobody is told of a change that was not persisted.
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[4], version_text .. '-1', 'v', version_text)
redis.call('HSET', KEYS[1], 'version', version_text, 'record', ARGV[2])
if ARGV[3] ~= '0' then
  redis.call('EXPIRE', KEYS[1], ARGV[3])
  redis.call('EXPIRE', KEYS[2], ARGV[3])
end
return {'OK', version}
