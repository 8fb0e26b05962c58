-- One page of a player's rating history, read at one instant: its rated games count and
-- the entries from the one counted `from` (its count among the player's games: the newest
-- is `games`), newest first.
--
-- KEYS (one hash tag): 1 the player's rating hash  2 its history list (newest first)
-- ARGV: 1 the count of the page's first entry ("0": the newest)  2 most entries to give
-- Reply: {games, entries...} (games 0: never rated)
local games = tonumber(redis.call('HGET', KEYS[1], 'games')) or 0
local from = tonumber(ARGV[1])
if from == 0 or from > games then
  from = games
end
local start = games - from
local entries = redis.call('LRANGE', KEYS[2], start, start + tonumber(ARGV[2]) - 1)
table.insert(entries, 1, string.format('%d', games))
return entries
