-- An id leaves a caller's live set (a game finished, a stream closed), and its weight too.
--
-- KEYS (one hash tag): 1 live set   2 weights
-- ARGV: 1 the id
-- Reply: 1 it was there, 0 it was not
redis.call('HDEL', KEYS[2], ARGV[1])
return redis.call('ZREM', KEYS[1], ARGV[1])
