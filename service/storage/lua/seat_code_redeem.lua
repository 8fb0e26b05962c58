-- Redeem a one-time code: read and delete it in one step, so of any number of concurrent
-- redeemers exactly one gets the payload.
-- KEYS[1] the code's key (service.seat_codes: it holds the payload, with a TTL)
-- ARGV none
-- Reply: false when there is no such key (unknown, used or expired), else
--        {payload, remaining milliseconds of its life}
local payload = redis.call('GET', KEYS[1])
if not payload then
  return false
end
local left = redis.call('PTTL', KEYS[1])
redis.call('DEL', KEYS[1])
return {payload, left}
