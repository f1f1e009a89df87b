// The seeded randomness of the chat's simulation: one small generator (mulberry32) for the
// simulated service's ids, the faults and the explorer's steps, so that a seed replays.

/** A random number in [0, 1) from a seeded source. */
export type Random = () => number;

/** mulberry32: a small seeded source of numbers in [0, 1). */
export function seeded(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
