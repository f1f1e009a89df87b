// The chat's deterministic simulation (issue 36; tests/sim/): the schedules the explorer
// found while the chat was built, each replayed against the package (every invariant must
// hold), and a schedule replayed twice gives the same trace (the simulation is
// deterministic: a seed reproduces a failure). The 20,000 seeds and the self-test against
// broken copies of the chat run as steps of scripts/test (`scripts/simulate`).
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import * as chat from "../../pkg/dist/chat.js";
import { runSchedule, scheduleArb, type ChatModule } from "../sim/explore.ts";
import { REGRESSIONS } from "../sim/regressions.ts";

const mod = chat as unknown as ChatModule;

for (const r of REGRESSIONS) {
  test(`regression: ${r.name}`, async () => {
    const outcome = await runSchedule(r.schedule, mod);
    assert.deepEqual(outcome.violations, [], outcome.trace.join("\n"));
  });
}

test("a schedule replayed gives the same trace, faults and violations (seeds 0-19)", async () => {
  for (let seed = 0; seed < 20; seed++) {
    const schedule = fc.sample(scheduleArb, { seed, numRuns: 1 })[0]!;
    const a = await runSchedule(schedule, mod);
    const b = await runSchedule(schedule, mod);
    assert.deepEqual(b, a, `seed ${seed}`);
    assert.ok(a.trace.some((l) => l.includes(" opened ")), `seed ${seed}: the chat opened`);
  }
});
