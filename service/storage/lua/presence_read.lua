-- The live presence leases of many games in one call (service.feed's refresh of every
-- watched lobby table): one reply per key, the names (<seat>:<nonce>) of its leases whose
-- expiry is after now. Read-only.
--
-- KEYS: the games' presence hashes (on a Redis Cluster, of one hash slot)
-- ARGV: 1 now, in Unix ms
-- Reply: {{lease name, ...}, ...}, one list per key, in the order of KEYS
local now = tonumber(ARGV[1])
local replies = {}
for i, key in ipairs(KEYS) do
  local fields = redis.call('HGETALL', key)
  local live = {}
  for j = 1, #fields, 2 do
    if tonumber(fields[j + 1]) > now then
      live[#live + 1] = fields[j]
    end
  end
  replies[i] = live
end
return replies
