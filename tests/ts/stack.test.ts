// A JS stack nearly full when the app calls the package (deep recursion in the app): the
// calls made there may fail, but the module must keep working afterwards. (Its own file:
// the node test runner gives each file a fresh module.)
import assert from "node:assert/strict";
import { test } from "node:test";
import { Msg, Session } from "../../pkg/dist/index.js";

const USER = '{"name":"a","role":"user","content":[{"type":"text","text":"x"}]}';

test("after calls made with the JS stack nearly full, ids are still generated", () => {
  // (a message made before: the clock is set up, the pool of random bytes is not)
  const before = Msg.fromJSON('{"name":"a","role":"assistant","id":"r","content":[]}');
  let budget = 0;
  let failed = 0;
  function dive(): void {
    try {
      dive();
    } catch {
      budget = 100; // the stack is full: use what is left of it on the way back up
    }
    if (budget-- > 0) {
      try {
        Msg.fromJSON(USER); // needs a generated id (and its first random bytes)
      } catch {
        failed++;
      }
    }
  }
  dive();
  assert.ok(failed > 0, "some calls ran out of stack");
  // every id comes from the random pool (or is made up from it): two messages, two ids
  const [a, b] = [Msg.fromJSON(USER), Msg.fromJSON(USER)];
  assert.match(a.id, /^[0-9a-f]{32}$/);
  assert.notEqual(a.id, b.id);
  assert.equal(before.appendEvent({ type: "TEXT_BLOCK_START", reply_id: "r", block_id: "b" }).content.length, 1);
  const session = new Session();
  assert.equal(session.feed('{"type":"REPLY_START","session_id":"s","reply_id":"r","name":"A"}\n'), 1);
  assert.equal(session.messages[0]!.id, "r");
});
