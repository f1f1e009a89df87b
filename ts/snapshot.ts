// Rebuilds frozen wire-JSON snapshots from the changes the wasm core hands out (the core's
// `SnapshotReader`): unchanged blocks keep their objects; a block that only grew gets
// `old + tail` for its streamed string, so a read costs what changed, not the block size.

/** One change: `[i, block]` (whole block) or `[i, path, keep, tail]` (a string grew). */
type Change = [number, unknown] | [number, (string | number)[], number | null, string];

/** What `readChanges()` of one message returns (parsed). */
export interface MessageChanges {
  header: Record<string, unknown>;
  count: number;
  changes: Change[];
}

/** Freezes `value` and everything in it; without recursion, so any depth is fine. */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v !== null && typeof v === "object" && !Object.isFrozen(v)) {
      Object.freeze(v);
      for (const child of Object.values(v)) stack.push(child);
    }
  }
  return value;
}

// For a base64 payload (cut to `keep` before each append, its last 4-character group may
// change), the object holding it → its stable prefix, built by appends only: slicing the
// previous string instead would flatten it in V8 and make every read cost its size.
const stablePrefixes = new WeakMap<object, { keep: number; prefix: string }>();

/** A copy of `node` with the string at `path` replaced by `old.slice(0, keep) + tail`. */
function grow(node: unknown, path: (string | number)[], keep: number | null, tail: string): unknown {
  const [key, ...rest] = path as [string | number, ...(string | number)[]];
  const holder = node as Record<string | number, unknown>;
  const copy = (Array.isArray(node) ? [...node] : { ...(node as object) }) as Record<string | number, unknown>;
  if (rest.length > 0) {
    copy[key] = grow(holder[key], rest, keep, tail);
    return Object.freeze(copy);
  }
  const old = holder[key] as string;
  if (keep === null) {
    copy[key] = old + tail;
    return Object.freeze(copy);
  }
  const cached = stablePrefixes.get(holder);
  const prefix = cached !== undefined && cached.keep === keep ? cached.prefix : old.slice(0, keep);
  const value = prefix + tail;
  copy[key] = value;
  Object.freeze(copy);
  // a padded last group is the one the next append may change
  const partial = tail.endsWith("=") ? 4 : 0;
  stablePrefixes.set(copy, { keep: value.length - partial, prefix: prefix + tail.slice(0, tail.length - partial) });
  return copy;
}

/**
 * Applies a message's changes to `blocks` (the blocks of its previous snapshot, a private
 * list changed in place) and returns the new frozen snapshot. A read costs what changed
 * plus one copy of the list (a frozen copy: V8 copies a frozen array 50x slower than a
 * plain one, so the list itself stays plain).
 */
export function applyChanges(blocks: unknown[], read: MessageChanges): unknown {
  blocks.length = Math.min(blocks.length, read.count);
  for (const change of read.changes) {
    const i = change[0];
    blocks[i] = change.length === 2 ? deepFreeze(change[1]) : grow(blocks[i], change[1], change[2], change[3]);
  }
  const header = read.header;
  header.content = Object.freeze(blocks.slice());
  return deepFreeze(header);
}
