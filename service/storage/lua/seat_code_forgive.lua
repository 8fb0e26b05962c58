-- Give back an attempt counted by seat_code_attempt.lua: the code was good, and only
-- wrong codes count against an address. A window that ended meanwhile is left alone.
-- KEYS[1] the address's counter
-- ARGV none
-- Reply: the count left (0 when there is no window)
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
local left = redis.call('DECR', KEYS[1])
if left <= 0 then
  redis.call('DEL', KEYS[1])
  return 0
end
return left
