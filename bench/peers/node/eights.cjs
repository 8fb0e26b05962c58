'use strict';
// The card game of bench.peers, shared by the boardgame.io game, the Colyseus room and the
// drivers' planner, so all three deal and judge alike.
//
// Four players, 52 cards (suit = card / 13, rank = card % 13), seven each, one card face up
// on the pile. On your turn you play a card of the top card's suit or rank, and you must if
// you can; if you cannot, you draw one card (the turn passes either way). An empty deck is
// refilled with the pile under its top card, shuffled; with nothing to draw, a draw is a
// pass. The first to empty their hand wins. The deal and every reshuffle come from a
// seeded generator whose state is part of the game state (hidden from the players).

const SEATS = 4;
const HAND = 7;
const DECK = 52;
const MAX_STEPS = 500; // a plan longer than this is cut (never seen with seven cards)

/** One step of mulberry32: [a number in [0, 1), the next state]. */
function next(state) {
  const s = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(s ^ (s >>> 15), 1 | s);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return [((t ^ (t >>> 14)) >>> 0) / 4294967296, s];
}

/** Shuffle `cards` in place with the game's generator; returns the cards. */
function shuffle(game, cards) {
  for (let i = cards.length - 1; i > 0; i--) {
    const [value, state] = next(game.rng);
    game.rng = state;
    const j = Math.floor(value * (i + 1));
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return cards;
}

/** A new game from `seed`: hands, the pile (top last), the deck, whose turn. */
function deal(seed) {
  const game = { rng: seed | 0, hands: [], pile: [], deck: [], turn: 0, moves: 0, winner: -1 };
  const cards = shuffle(game, Array.from({ length: DECK }, (_, card) => card));
  for (let seat = 0; seat < SEATS; seat++) game.hands.push(cards.splice(0, HAND));
  game.pile.push(cards.shift());
  game.deck = cards;
  return game;
}

const top = (game) => game.pile[game.pile.length - 1];
const matches = (card, onto) =>
  Math.floor(card / 13) === Math.floor(onto / 13) || card % 13 === onto % 13;

/** Index of the first card of `hand` that may go on `onto`, or -1. */
function playable(hand, onto) {
  for (let i = 0; i < hand.length; i++) if (matches(hand[i], onto)) return i;
  return -1;
}

/** Why `seat` may not make `move` ({kind: 'play', card} or {kind: 'draw'}), or null. */
function refusal(game, seat, move) {
  if (game.winner >= 0) return 'game over';
  if (seat !== game.turn) return 'not your turn';
  const hand = game.hands[seat];
  if (move.kind === 'play') {
    if (!Number.isInteger(move.card) || hand.indexOf(move.card) < 0) return 'card not in hand';
    if (!matches(move.card, top(game))) return 'card matches neither suit nor rank';
    return null;
  }
  if (move.kind === 'draw') {
    return playable(hand, top(game)) >= 0 ? 'must play a matching card' : null;
  }
  return 'unknown move';
}

/** Apply a move that `refusal` accepted: what changed ({played, index} or {drawn}). */
function apply(game, seat, move) {
  const hand = game.hands[seat];
  let change;
  if (move.kind === 'play') {
    const index = hand.indexOf(move.card);
    hand.splice(index, 1);
    game.pile.push(move.card);
    change = { played: move.card, index };
    if (hand.length === 0) game.winner = seat;
  } else {
    if (game.deck.length === 0 && game.pile.length > 1) {
      game.deck = shuffle(game, game.pile.splice(0, game.pile.length - 1));
    }
    const drawn = game.deck.length > 0 ? game.deck.shift() : null;
    if (drawn !== null) hand.push(drawn);
    change = { drawn };
  }
  game.moves += 1;
  game.turn = (game.turn + 1) % SEATS;
  return change;
}

/** The game of `seed` played out locally, every seat playing its first playable card:
 * the seat and move of every step, so a driver never decides during a run. */
function plan(seed) {
  const game = deal(seed);
  const seats = [];
  const moves = [];
  while (game.winner < 0 && moves.length < MAX_STEPS) {
    const seat = game.turn;
    const index = playable(game.hands[seat], top(game));
    const move = index >= 0 ? { kind: 'play', card: game.hands[seat][index] } : { kind: 'draw' };
    apply(game, seat, move);
    seats.push(seat);
    moves.push(move);
  }
  return { seed, seats, moves, complete: game.winner >= 0 };
}

module.exports = { SEATS, HAND, deal, top, matches, playable, refusal, apply, plan };
