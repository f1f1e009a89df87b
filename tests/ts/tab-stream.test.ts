// TabStream (ts/tab-stream.ts) in node: its frame splitter, and the catch-up a chat that
// starts waiting for a session's stream mid-reply gets from the chat holding it (issue 38:
// a tab opened mid-reply showed only what was relayed after it came, marked partial,
// until the reply ended). The tabs' live behaviour is tests/ts/tabs.test.ts (Chromium);
// here the Web Locks are a small in-process lock manager (node 20 has none) and the
// channel is node's own BroadcastChannel, which delivers between instances of one thread.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { CATCH_UP_WAIT_MS, lastFrameEnd, TabStream, type TabStreamHost } from "../../pkg/dist/tab-stream.js";

/** Exclusive locks by name, granted in request order (what `navigator.locks` does for one origin). */
class Locks {
  #queues = new Map<string, (() => void)[]>();
  #held = new Set<string>();
  request(name: string, options: { signal?: AbortSignal }, run: () => Promise<void>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const go = (): void => {
        this.#held.add(name);
        run().then(resolve, reject).finally(() => {
          this.#held.delete(name);
          this.#queues.get(name)?.shift()?.();
        });
      };
      if (!this.#held.has(name)) return go();
      const queue = this.#queues.get(name) ?? [];
      this.#queues.set(name, queue);
      queue.push(go);
      options.signal?.addEventListener("abort", () => {
        const i = queue.indexOf(go);
        if (i >= 0) queue.splice(i, 1);
        reject(options.signal!.reason);
      });
    });
  }
}

const g = globalThis as { navigator?: unknown };
const hadNavigator = Object.getOwnPropertyDescriptor(globalThis, "navigator");
Object.defineProperty(globalThis, "navigator", { value: { locks: new Locks() }, configurable: true, writable: true });
after(() => {
  if (hadNavigator) Object.defineProperty(globalThis, "navigator", hadNavigator);
  else delete g.navigator;
});

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = (b: Uint8Array): string => new TextDecoder().decode(b);
const tick = (ms = 20): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** What a chat's TabStream told it, in order. */
function recorder(): TabStreamHost & { log: string[] } {
  const log: string[] = [];
  return { log, frames: (d) => log.push(`frames ${text(d)}`), opened: () => log.push("opened"), woken: () => log.push("woken"), stopped: () => log.push("stopped") };
}

/** A chat holding `key`'s stream until `release()` (its connection opened at once). */
async function holder(key: string): Promise<{ tabs: TabStream; release: () => void }> {
  const tabs = new TabStream(key, recorder());
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  tabs.lead(() => held, () => true, () => {});
  await tick();
  assert.equal(tabs.holding, true);
  tabs.opened();
  return { tabs, release };
}

test("lastFrameEnd: after the last blank line, by LF LF, CR LF CR LF or CR CR", () => {
  assert.equal(lastFrameEnd(bytes("")), 0);
  assert.equal(lastFrameEnd(bytes("data: a\n")), 0);
  assert.equal(lastFrameEnd(bytes("data: a\n\n")), 9);
  assert.equal(lastFrameEnd(bytes("data: a\n\ndata: b\n")), 9);
  assert.equal(lastFrameEnd(bytes("data: a\n\ndata: b\n\n")), 18);
  assert.equal(lastFrameEnd(bytes("data: a\r\n\r\ndata")), 11);
  // a CR CR at the very end may be the start of CR LF: not yet a frame's end
  assert.equal(lastFrameEnd(bytes("data: a\r\r")), 0);
  assert.equal(lastFrameEnd(bytes("data: a\r\rdata")), 9);
});

test("relay: whole frames go out, a cut frame waits for its end", async () => {
  const key = "split";
  const { tabs, release } = await holder(key);
  const listener = recorder();
  const other = new TabStream(key, listener);
  tabs.relay(bytes("id: 1\ndata: a\n\nid: 2\nda"));
  tabs.relay(bytes("ta: b\n"));
  tabs.relay(bytes("\n"));
  await tick();
  // (the listener waits for no lock: it takes what is relayed as it comes)
  assert.deepEqual(listener.log, ["frames id: 1\ndata: a\n\n", "frames id: 2\ndata: b\n\n"]);
  other.close();
  release();
  tabs.close();
});

test("a chat that starts waiting mid-reply gets the holder's frames since its connection opened first, then what came meanwhile", async () => {
  const key = "catch-up";
  const { tabs, release } = await holder(key);
  tabs.relay(bytes("id: 1\ndata: start\n\n"));
  tabs.relay(bytes("id: 2\ndata: d1\n\n"));
  const late = recorder();
  const follower = new TabStream(key, late);
  let followerRan = false;
  follower.lead(async () => void (followerRan = true), () => true, () => {});
  assert.equal(follower.waiting, true);
  // relayed before the holder read the follower's hello: held back, after the catch-up
  tabs.relay(bytes("id: 3\ndata: d2\n\n"));
  await tick();
  assert.deepEqual(late.log, ["opened", "frames id: 1\ndata: start\n\nid: 2\ndata: d1\n\nid: 3\ndata: d2\n\n", "frames id: 3\ndata: d2\n\n"]);
  // then frames come as they are relayed
  tabs.relay(bytes("id: 4\ndata: end\n\n"));
  await tick();
  assert.equal(late.log.at(-1), "frames id: 4\ndata: end\n\n");
  // a second follower's catch-up goes to it alone
  const third = recorder();
  const t3 = new TabStream(key, third);
  t3.lead(async () => {}, () => true, () => {});
  await tick();
  assert.deepEqual(third.log, ["opened", "frames id: 1\ndata: start\n\nid: 2\ndata: d1\n\nid: 3\ndata: d2\n\nid: 4\ndata: end\n\n"]);
  assert.equal(late.log.length, 4, `the first follower got no second catch-up: ${late.log.join(" | ")}`);
  // at rest the kept frames go: a chat that comes after is caught up from the next run on
  tabs.forget();
  tabs.relay(bytes("id: 5\ndata: next\n\n"));
  const fourth = recorder();
  const t4 = new TabStream(key, fourth);
  t4.lead(async () => {}, () => true, () => {});
  await tick();
  assert.deepEqual(fourth.log, ["opened", "frames id: 5\ndata: next\n\n"]);
  t4.close();
  // the holder goes: the next waiting chat takes the lock (its own stream runs)
  release();
  tabs.close();
  await tick();
  assert.equal(followerRan, true, "the first chat waiting took the lock over");
  follower.close();
  t3.close();
});

test("with no holder answering, what is relayed is held back CATCH_UP_WAIT_MS, then taken in", async () => {
  const key = "no-answer";
  // the lock is held by a page that relays without answering hellos (an older version)
  let release!: () => void;
  void (globalThis as unknown as { navigator: { locks: Locks } }).navigator.locks.request(`agentscope-message:stream:${key}`, {}, () => new Promise<void>((r) => (release = r)));
  const raw = new BroadcastChannel(`agentscope-message:stream:${key}`);
  const late = recorder();
  const follower = new TabStream(key, late);
  follower.lead(async () => {}, () => true, () => {});
  raw.postMessage({ t: "frames", data: bytes("id: 9\ndata: x\n\n") });
  await tick(CATCH_UP_WAIT_MS / 2);
  assert.deepEqual(late.log, []);
  await tick(CATCH_UP_WAIT_MS / 2 + 100);
  assert.deepEqual(late.log, ["frames id: 9\ndata: x\n\n"]);
  raw.close();
  follower.close();
  release();
});

test("a chat that stops waiting before the catch-up takes in what was held back; a closed one nothing", async () => {
  const key = "unwait";
  let release!: () => void;
  void (globalThis as unknown as { navigator: { locks: Locks } }).navigator.locks.request(`agentscope-message:stream:${key}`, {}, () => new Promise<void>((r) => (release = r)));
  const raw = new BroadcastChannel(`agentscope-message:stream:${key}`);
  const a = recorder();
  const b = recorder();
  const ta = new TabStream(key, a);
  const tb = new TabStream(key, b);
  ta.lead(async () => {}, () => true, () => {});
  tb.lead(async () => {}, () => true, () => {});
  raw.postMessage({ t: "frames", data: bytes("id: 5\ndata: y\n\n") });
  await tick();
  ta.unwait();
  tb.close();
  await tick(CATCH_UP_WAIT_MS + 100);
  assert.deepEqual(a.log, ["frames id: 5\ndata: y\n\n"]);
  assert.deepEqual(b.log, []);
  raw.close();
  ta.close();
  release();
});

test("a chat that took the stream over catches a late chat up with what the former holder relayed to it too", async () => {
  const key = "survivor";
  const first = await holder(key);
  first.tabs.relay(bytes("id: 1\ndata: start\n\n"));
  const survivor = new TabStream(key, recorder());
  let takeOver!: () => void;
  const taken = new Promise<void>((r) => (takeOver = r));
  survivor.lead(() => taken, () => true, () => {});
  await tick();
  first.tabs.relay(bytes("id: 2\ndata: d1\n\n"));
  await tick();
  // the holder goes: the survivor holds, its connection replays only the service's log's tail
  first.release();
  first.tabs.close();
  await tick();
  assert.equal(survivor.holding, true);
  survivor.opened();
  survivor.relay(bytes("id: 2\ndata: d1\n\nid: 3\ndata: d2\n\n"));
  const late = recorder();
  const t3 = new TabStream(key, late);
  t3.lead(async () => {}, () => true, () => {});
  await tick();
  assert.deepEqual(late.log, ["opened", "frames id: 1\ndata: start\n\nid: 2\ndata: d1\n\nid: 2\ndata: d1\n\nid: 3\ndata: d2\n\n"]);
  takeOver();
  survivor.close();
  t3.close();
});

test("a chat whose interrupt was answered tells the others: stop", async () => {
  const a = recorder();
  const b = recorder();
  const ta = new TabStream("stop", a);
  const tb = new TabStream("stop", b);
  ta.stop();
  tb.wake();
  await tick();
  assert.deepEqual(a.log, ["woken"]);
  assert.deepEqual(b.log, ["stopped"]);
  ta.close();
  tb.close();
});
