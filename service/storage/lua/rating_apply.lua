-- Apply the new ratings of one finished game: every player's rating, history entry and
-- leaderboard score, and the game's marker, at once; exactly once per game.
--
-- KEYS (one hash tag, the game's ratings `ratings:{<game>}`: one cluster slot):
--   1 the finished game's marker (exists once it was rated)   2 the leaderboard (sorted set)
--   then per player i (from 0): 3 + 2i its rating hash, 4 + 2i its history list
-- ARGV:
--   1 marker TTL seconds   2 history entries a player keeps   3 now (Unix ms)
--   then per player i, 7 values from 4 + 7i: its rated games when its rating was read (the
--   update was computed from that rating), mu, sigma, leaderboard score ("": not listed),
--   display name, history entry, player id
-- Reply: {"DONE"} the game was rated before | {"CONFLICT", i} player i was rated by another
--        game since its rating was read: read again and compute again | {"OK"}
-- Nothing is written but on OK.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return {'DONE'}
end
local players = (#KEYS - 2) / 2
for i = 0, players - 1 do
  local games = tonumber(redis.call('HGET', KEYS[3 + 2 * i], 'games')) or 0
  if games ~= tonumber(ARGV[4 + 7 * i]) then
    return {'CONFLICT', i}
  end
end
for i = 0, players - 1 do
  local rating, history, at = KEYS[3 + 2 * i], KEYS[4 + 2 * i], 4 + 7 * i
  local games = string.format('%d', tonumber(ARGV[at]) + 1)
  redis.call('HSET', rating, 'mu', ARGV[at + 1], 'sigma', ARGV[at + 2], 'games', games,
    'at', ARGV[3], 'name', ARGV[at + 4])
  -- Newest first; the oldest entries beyond the cap go (the head is never trimmed, so an
  -- entry's index stays `games - its own count`: service/storage/ratings.py's pages).
  redis.call('LPUSH', history, ARGV[at + 5])
  redis.call('LTRIM', history, 0, tonumber(ARGV[2]) - 1)
  if ARGV[at + 3] ~= '' then
    redis.call('ZADD', KEYS[2], ARGV[at + 3], ARGV[at + 6])
  end
end
redis.call('SET', KEYS[1], '1', 'EX', ARGV[1])
return {'OK'}
