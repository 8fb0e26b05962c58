'use strict';
// What the validation and redaction checks of bench.peers share: does a seat's state show
// another seat's hand?

/** Every array of integers inside `value` (at any depth), each as a sorted key. */
function intArrays(value, out = []) {
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every(Number.isInteger)) out.push(key(value));
    for (const item of value) intArrays(item, out);
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) intArrays(item, out);
  }
  return out;
}

const key = (cards) => [...cards].sort((a, b) => a - b).join(',');

/** The seats other than `seat` whose whole hand appears as an array in `state`. */
function exposed(state, hands, seat) {
  const arrays = new Set(intArrays(state));
  return hands.flatMap((hand, other) => (other !== seat && arrays.has(key(hand)) ? [other] : []));
}

/** Whether `state` shows `hand` (the seat's own: the check can see hands at all). */
const shows = (state, hand) => new Set(intArrays(state)).has(key(hand));

/** One check's record, as bench.peers prints it. */
const result = (name, ok, detail) => ({ name, ok: Boolean(ok), detail });

/** A seed whose deal gives seat 0 a card it may play and one it may not (matching neither
 * suit nor rank), so each illegal move of the checks has a card to try. */
function checkSeed(eights) {
  for (let seed = 1; ; seed++) {
    const game = eights.deal(seed);
    const hand = game.hands[0];
    const onto = eights.top(game);
    if (eights.playable(hand, onto) >= 0 && hand.some((card) => !eights.matches(card, onto))) {
      return seed;
    }
  }
}

module.exports = { exposed, shows, result, checkSeed };
