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

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** A copy of `node` with the string at `path` replaced by `old.slice(0, keep) + tail`. */
function grow(node: unknown, path: (string | number)[], keep: number | null, tail: string): unknown {
  if (path.length === 0) {
    const old = node as string;
    return (keep === null ? old : old.slice(0, keep)) + tail;
  }
  const [key, ...rest] = path as [string | number, ...(string | number)[]];
  const copy = (Array.isArray(node) ? [...node] : { ...(node as object) }) as Record<string | number, unknown>;
  copy[key] = grow((node as Record<string | number, unknown>)[key], rest, keep, tail);
  return Object.freeze(copy);
}

/**
 * Applies a message's changes to the blocks of its previous snapshot and returns the new
 * frozen snapshot with its blocks.
 */
export function applyChanges(previous: readonly unknown[], read: MessageChanges): { snapshot: unknown; blocks: unknown[] } {
  const blocks = previous.slice(0, read.count);
  for (const change of read.changes) {
    const i = change[0];
    blocks[i] = change.length === 2 ? deepFreeze(change[1]) : grow(blocks[i], change[1], change[2], change[3]);
  }
  const header = read.header;
  header.content = Object.freeze(blocks.slice());
  return { snapshot: deepFreeze(header), blocks };
}
