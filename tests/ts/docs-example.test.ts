// The documentation's example runs on this package and rebuilds the reference's message.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { nullRecordingVolatiles, root, thaw } from "./helpers.ts";

test("the documentation's TypeScript example rebuilds the recorded reply", async () => {
  const { rebuilt } = await import("./docs-example.ts");
  assert.ok(rebuilt !== null);
  const want = JSON.parse(readFileSync(`${root}examples/recordings/c_react_3_tools_2_iters/final_msg.json`, "utf8"));
  const got = thaw(rebuilt.toJSON());
  nullRecordingVolatiles(got);
  nullRecordingVolatiles(want);
  assert.deepEqual(got, want);
  assert.equal(rebuilt.getContentBlocks("tool_call").length, 3);
});
