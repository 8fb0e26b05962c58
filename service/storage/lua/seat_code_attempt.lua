-- Count a code attempt of one address in a fixed window; refuse past the limit.
-- KEYS[1] the address's counter (service.seat_codes)
-- ARGV[1] the limit per window, ARGV[2] the window in milliseconds
-- Reply: {1, 0} counted (the caller gives it back if the code was good), or
--        {0, milliseconds until the window ends} over the limit (nothing counted)
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= tonumber(ARGV[1]) then
  local left = redis.call('PTTL', KEYS[1])
  if left < 0 then
    left = tonumber(ARGV[2])
  end
  return {0, left}
end
if redis.call('INCR', KEYS[1]) == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return {1, 0}
