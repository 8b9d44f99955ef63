// Deck and shuffle: the JavaScript twin of games/poker/rules/deck.py.
//
// PyRandom reproduces CPython's random.Random(seed) for a non-negative integer
// seed (MT19937 seeded with init_by_array over the seed's 32-bit words) and its
// getrandbits(k) for k <= 32. With the same Fisher–Yates and rejection sampling
// as the server, a seed deals the same order in the browser and on the server.

import { DEFAULT_TABLE, getTable } from "./scoring.js";

export const JOKER = 0;

const N = 624;
const M = 397;

export class PyRandom {
  /** @param {bigint|number|string} seed a non-negative integer */
  constructor(seed) {
    const value = BigInt(seed);
    if (value < 0n) throw new RangeError("seed must be non-negative");
    const key = [];
    for (let rest = value; rest > 0n; rest >>= 32n) key.push(Number(rest & 0xffffffffn));
    if (key.length === 0) key.push(0);
    this.mt = new Uint32Array(N);
    this.index = N;
    this.#initByArray(key);
  }

  #initGenrand(seed) {
    const mt = this.mt;
    mt[0] = seed >>> 0;
    for (let i = 1; i < N; i += 1) {
      const previous = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = (Math.imul(1812433253, previous) + i) >>> 0;
    }
  }

  #initByArray(key) {
    const mt = this.mt;
    this.#initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k -= 1) {
      const previous = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(previous, 1664525)) + key[j] + j) >>> 0;
      i += 1;
      j += 1;
      if (i >= N) {
        mt[0] = mt[N - 1];
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k -= 1) {
      const previous = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(previous, 1566083941)) - i) >>> 0;
      i += 1;
      if (i >= N) {
        mt[0] = mt[N - 1];
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  #twist() {
    const mt = this.mt;
    for (let kk = 0; kk < N; kk += 1) {
      const y = (mt[kk] & 0x80000000) | (mt[(kk + 1) % N] & 0x7fffffff);
      mt[kk] = mt[(kk + M) % N] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
    }
    this.index = 0;
  }

  /** The next 32-bit output, as CPython's genrand_uint32. */
  nextUint32() {
    if (this.index >= N) this.#twist();
    let y = this.mt[this.index];
    this.index += 1;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** CPython's getrandbits(k) for 0 <= k <= 32. */
  getrandbits(k) {
    if (!Number.isInteger(k) || k < 0 || k > 32) throw new RangeError("0 <= k <= 32");
    return k === 0 ? 0 : this.nextUint32() >>> (32 - k);
  }

  /** A uniform integer in 0..n-1, as deck.py's randbelow (rejection sampling). */
  below(n) {
    const bits = n <= 1 ? 0 : 32 - Math.clz32(n - 1);
    for (;;) {
      const candidate = this.getrandbits(bits);
      if (candidate < n) return candidate;
    }
  }
}

/** The unshuffled deck: 1..13 four times each in ascending order, then the jokers. */
export function buildDeck(table = DEFAULT_TABLE) {
  const spec = getTable(table).deck;
  const deck = [];
  for (let value = 1; value <= spec.values; value += 1) {
    for (let copy = 0; copy < spec.copies; copy += 1) deck.push(value);
  }
  for (let joker = 0; joker < spec.jokers; joker += 1) deck.push(JOKER);
  return deck;
}

/** A Fisher–Yates shuffled copy of `cards`, driven by `rng` (a PyRandom). */
export function shuffle(cards, rng) {
  const deck = [...cards];
  for (let i = deck.length - 1; i > 0; i -= 1) {
    const j = rng.below(i + 1);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/** The full shuffled deck for a seed, identical to deck.py's seeded_deck. */
export function seededDeck(seed, table = DEFAULT_TABLE) {
  return shuffle(buildDeck(table), new PyRandom(seed));
}
