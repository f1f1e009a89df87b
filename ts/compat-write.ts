// Writing into the app's plain message objects (`agentscope-message/compat`): every key
// as an own data property (a `__proto__`, `constructor` or `prototype` key of the data
// never reaches a prototype), every write recorded so that a write the object refuses (a
// frozen or sealed object, a Proxy) undoes the ones before it, and the streamed strings
// grown by their tails.

// The writes of the call in progress, as steps that undo them (newest last): a write that
// throws (a frozen or sealed object, a Proxy that refuses) undoes those before it, so
// that the object is left exactly as it was.
let journal: (() => void)[] | undefined;

/** `obj[key]`, read only when it is the object's own (never a prototype's). */
export function own(obj: Record<string | number, unknown>, key: string | number): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** Writes `obj[key]` as an own data property (`__proto__` included: never a prototype's
 * setter), recording how to undo it. */
export function put(obj: Record<string | number, unknown>, key: string | number, value: unknown): void {
  const had = Object.hasOwn(obj, key);
  const old = had ? obj[key] : undefined;
  define(obj, key, value);
  journal?.push(had ? () => define(obj, key, old) : () => delete obj[key]);
}

function define(obj: Record<string | number, unknown>, key: string | number, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}

/** Deletes `obj[key]`, recording how to undo it. */
export function remove(obj: Record<string | number, unknown>, key: string): void {
  const old = obj[key];
  if (!delete obj[key]) throw new TypeError(`cannot delete property ${JSON.stringify(key)}`);
  journal?.push(() => define(obj, key, old));
}

/** Cuts `list` to `length`, recording how to undo it. */
export function cut(list: unknown[], length: number): void {
  const removed = list.slice(length);
  list.length = length;
  journal?.push(() => list.push(...removed));
}

/** Appends `value` to `list`, recording how to undo it. */
export function append(list: unknown[], value: unknown): void {
  const length = list.length;
  list.push(value);
  journal?.push(() => {
    list.length = length;
  });
}

/** Runs `write`, recording its writes; when it throws, undoes them (newest first) and
 * throws its error: the objects are exactly as they were. */
export function undoing(write: () => void): void {
  const steps: (() => void)[] = [];
  journal = steps;
  try {
    write();
  } catch (e) {
    journal = undefined;
    for (let i = steps.length - 1; i >= 0; i--) {
      try {
        steps[i]!();
      } catch {
        // an object that refuses the write refuses nothing more of it
      }
    }
    throw e;
  } finally {
    journal = undefined;
  }
}

export function isObject(v: unknown): v is Record<string | number, unknown> {
  return typeof v === "object" && v !== null;
}

/**
 * Makes `old` hold `now`'s values in place: nested objects and lists are kept and synced
 * (keys `now` lacks removed), strings and numbers set. At a block's top level (`top`),
 * keys `now` lacks are kept: the wire has every declared key, so those are the app's.
 */
export function syncInto(old: Record<string | number, unknown>, now: Record<string | number, unknown>, top = false): void {
  if (Array.isArray(old) && Array.isArray(now)) {
    if (old.length > now.length) cut(old, now.length);
  } else if (!top) {
    for (const key of Object.keys(old)) if (!Object.hasOwn(now, key)) remove(old, key);
  }
  for (const key of Object.keys(now)) {
    // own properties only, read and written: a key `__proto__`, `constructor` or
    // `prototype` in the data is data, never a way to a prototype
    const a = own(old, key);
    const b = now[key];
    if (isObject(a) && isObject(b) && Array.isArray(a) === Array.isArray(b) && own(a, "type") === own(b, "type")) {
      syncInto(a, b);
    } else if (Array.isArray(old) && Number(key) === old.length) {
      append(old, b); // as the reference grows a list (an observed list sees a push)
    } else if (a !== b || !Object.hasOwn(old, key)) {
      put(old, key, b);
    }
  }
}

// For a base64 payload (cut to `keep` before each append: its last 4-character group may
// change), the object holding it → the string last written there and its stable prefix,
// built by appends only (slicing the previous string would flatten it in V8 and make
// every event cost the payload's size)
const prefixes = new WeakMap<object, { value: string; keep: number; prefix: string }>();

/** The string at `holder[key]` grown: `old + tail`, or `old.slice(0, keep) + tail`. */
export function grown(holder: Record<string | number, unknown>, key: string | number, keep: number | null, tail: string): string {
  const old = holder[key] as string;
  if (keep === null) return old + tail;
  const cached = prefixes.get(holder);
  const prefix = cached !== undefined && cached.value === old && cached.keep === keep ? cached.prefix : old.slice(0, keep);
  const value = prefix + tail;
  // a padded last group is the one the next append may change
  const partial = tail.endsWith("=") ? 4 : 0;
  return remember(holder, value, value.length - partial, prefix + tail.slice(0, tail.length - partial));
}

function remember(holder: object, value: string, keep: number, prefix: string): string {
  prefixes.set(holder, { value, keep, prefix });
  return value;
}

/** Grows the string at `path` of `block` in place. */
export function growInPlace(block: unknown, path: (string | number)[], keep: number | null, tail: string): void {
  let holder = block as Record<string | number, unknown>;
  for (let j = 0; j < path.length - 1; j++) holder = own(holder, path[j]!) as Record<string | number, unknown>;
  const key = path[path.length - 1]!;
  put(holder, key, grown(holder, key, keep, tail));
}

/** A copy of `node` with the string at `path` grown (the copies along the path only). */
export function growCopy(node: unknown, path: (string | number)[], keep: number | null, tail: string): unknown {
  const [key, ...rest] = path as [string | number, ...(string | number)[]];
  const holder = node as Record<string | number, unknown>;
  const copy = (Array.isArray(node) ? [...node] : { ...holder }) as Record<string | number, unknown>;
  if (rest.length > 0) {
    copy[key] = growCopy(holder[key], rest, keep, tail);
    return copy;
  }
  if (keep === null) {
    copy[key] = (holder[key] as string) + tail;
    return copy;
  }
  const value = grown(holder, key, keep, tail);
  copy[key] = value;
  const cached = prefixes.get(holder)!;
  prefixes.delete(holder);
  prefixes.set(copy, { ...cached, value });
  return copy;
}

