// Schedules the explorer found (`scripts/simulate --collect` against the package of commit
// 0944a18, before the fixes of issue 36), shrunk by fast-check: each one breaks an invariant
// of the chat as it was there (the last one: of this work's own first undoing of late
// events, found by a review), and must hold now. tests/ts/simulate.test.ts replays them;
// `scripts/simulate --regressions [--module <dist of another build>]` runs them all, and
// `scripts/simulate --schedule '<JSON>'` prints one's trace.
import type { Schedule } from "./explore.ts";

export interface Regression {
  /** What broke. */
  name: string;
  schedule: Schedule;
}

export const REGRESSIONS: Regression[] = [
  {
    name: "a text delta lost and the next 5 history reloads failing (5xx): the reply ends, yet onFinish is never called for it (F8's kind: an end the chat only learns from the store)",
    schedule: {"seed": 0, "instances": 1, "replayLimit": 1000, "stallMs": 3000, "rates": {"serverError": 0, "busy": 0, "lostBefore": 0, "lostAfter": 0.001, "stallHeaders": 0.001, "stallBody": 0.001, "drop": 0.0002, "duplicate": 0.0005, "reorder": 0.0003, "stallFrame": 0.0002, "cut": 0.0001, "batch": 0}, "actions": [{"kind": "repairOutage", "count": 5}, {"kind": "wait", "ms": 2793}, {"kind": "send", "policy": "hello"}]},
  },
  {
    name: "the reply's frames batched into one chunk: inside onFinish the status still reads submitted, so a send from it is refused busy (F9)",
    schedule: {"seed": 761663606, "instances": 1, "replayLimit": 1000, "stallMs": 3000, "rates": {"serverError": 0, "busy": 0, "lostBefore": 0, "lostAfter": 0.001, "stallHeaders": 0, "stallBody": 0, "drop": 0.0002, "duplicate": 0.0005, "reorder": 0, "stallFrame": 0, "cut": 0, "batch": 0.95}, "actions": [{"kind": "send", "policy": "hello"}, {"kind": "repairOutage", "count": 5}]},
  },
  {
    name: "the MODEL_CALL_END of a reply that then parks is lost: a parked reply was never reloaded (no REPLY_END), its usage stayed missing at rest",
    schedule: {"seed": 0, "instances": 1, "replayLimit": 1000, "stallMs": 45000, "rates": {"serverError": 0.003, "busy": 0.001, "lostBefore": 0, "lostAfter": 0, "stallHeaders": 0.001, "stallBody": 0, "drop": 0, "duplicate": 0, "reorder": 0.0003, "stallFrame": 0.0002, "cut": 0, "batch": 0}, "actions": [{"kind": "drop", "type": "MODEL_CALL_END"}, {"kind": "send", "policy": "ask"}]},
  },
  {
    name: "the REPLY_END frame is lost: the reply is settled from the store, yet onFinish was never called for it (F8)",
    schedule: {"seed": 0, "instances": 1, "replayLimit": 1000, "stallMs": 3000, "rates": {"serverError": 0, "busy": 0.001, "lostBefore": 0.001, "lostAfter": 0.001, "stallHeaders": 0, "stallBody": 0.001, "drop": 0, "duplicate": 0.0005, "reorder": 0.0003, "stallFrame": 0.0002, "cut": 0.0001, "batch": 0}, "actions": [{"kind": "drop", "type": "REPLY_END"}, {"kind": "send", "policy": "hello"}]},
  },
  {
    name: "F4: a text delta lost, then the repair reload failing 9 times in a row: the reload was given up silently, the reply stayed without the delta",
    schedule: {"seed": 495701533, "instances": 1, "replayLimit": 1000, "stallMs": 45000, "rates": {"serverError": 0, "busy": 0, "lostBefore": 0, "lostAfter": 0, "stallHeaders": 0, "stallBody": 0, "drop": 0, "duplicate": 0, "reorder": 0, "stallFrame": 0, "cut": 0, "batch": 0}, "actions": [{"kind": "repairOutage", "count": 8}, {"kind": "send", "policy": "hello"}, {"kind": "holdPost", "ms": 2500}, {"kind": "wait", "ms": 5029}, {"kind": "outage", "route": "GET /sessions/:id/messages", "count": 1}]},
  },
  {
    name: "a text delta of a reply that then parks is lost: the parked reply was never reloaded, its text stayed empty at rest",
    schedule: {"seed": 0, "instances": 1, "replayLimit": 1000, "stallMs": 45000, "rates": {"serverError": 0.003, "busy": 0.001, "lostBefore": 0.001, "lostAfter": 0, "stallHeaders": 0, "stallBody": 0, "drop": 0, "duplicate": 0.0005, "reorder": 0, "stallFrame": 0, "cut": 0, "batch": 0.01}, "actions": [{"kind": "repairOutage", "count": 5}, {"kind": "send", "policy": "confirm"}, {"kind": "losePost", "after": false}]},
  },
  {
    name: "the REPLY_START of a parked reply's continuation is lost (after a confirmation): the continuation was taken for stale events and undone, the call stayed asking",
    schedule: { seed: 1, instances: 1, replayLimit: 1000, stallMs: 45000, rates: { serverError: 0, busy: 0, lostBefore: 0, lostAfter: 0, stallHeaders: 0, stallBody: 0, drop: 0, duplicate: 0, reorder: 0, stallFrame: 0, cut: 0, batch: 0 }, actions: [{ kind: "send", policy: "confirm" }, { kind: "wait", ms: 3000 }, { kind: "drop", type: "REPLY_START" }, { kind: "confirm", approve: true, twice: false }, { kind: "wait", ms: 5000 }] },
  },
  {
    name: "the REPLY_START of an interrupted parked reply's continuation is lost (no echo: an interrupt): its tool result and end were undone as stale, the call stayed submitted",
    schedule: { seed: 0, instances: 1, replayLimit: 1000, stallMs: 45000, rates: { serverError: 0, busy: 0, lostBefore: 0, lostAfter: 0, stallHeaders: 0, stallBody: 0, drop: 0, duplicate: 0, reorder: 0, stallFrame: 0, cut: 0, batch: 0 }, actions: [{ kind: "send", policy: "ask" }, { kind: "drop", type: "REPLY_START" }, { kind: "stop" }] },
  },
  {
    name: "the client's wall clock stepped back an hour while a reply streams, its REPLY_END lost: the watchdog measured its wait on Date, so it waited the hour and the reply stayed streaming (found once the explorer stepped the clock; durations are now on the monotonic clock)",
    schedule: {"seed": 0, "instances": 1, "replayLimit": 1000, "stallMs": 45000, "rates": {"serverError": 0.003, "busy": 0.001, "lostBefore": 0.001, "lostAfter": 0.001, "stallHeaders": 0, "stallBody": 0.001, "drop": 0.0002, "duplicate": 0, "reorder": 0, "stallFrame": 0, "cut": 0, "batch": 0.01}, "actions": [{"kind": "send", "policy": "long 40"}, {"kind": "answer", "twice": false}, {"kind": "drop", "type": "REPLY_END"}, {"kind": "clockJump", "ms": -3600000}]},
  },
  {
    name: "stop() of a reply parked on a confirmation, the interrupt's REPLY_START and REPLY_END both lost: the chat took the reply as still parked at once and never looked again (awaiting_input for good, no onFinish; found after this refactor's new seeds, and failing on the code before it too)",
    schedule: {"seed": 2147483644, "instances": 1, "replayLimit": 1000, "stallMs": 45000, "rates": {"serverError": 0.006, "busy": 0, "lostBefore": 0, "lostAfter": 0.001, "stallHeaders": 0, "stallBody": 0, "drop": 0.0102, "duplicate": 0, "reorder": 0, "stallFrame": 0.0002, "cut": 0, "batch": 0}, "actions": [{"kind": "send", "policy": "confirm"}, {"kind": "stop"}]},
  },
  {
    name: "a delta lost, the repair reload refused, then the only instance killed for 60 s: the stream was lost, which ended the repair reload, and reconnect() connected without reloading: the reply stayed without the delta (found once the explorer killed instances)",
    schedule: {"seed": 0, "instances": 1, "replayLimit": 1000, "stallMs": 45000, "rates": {"serverError": 0, "busy": 0, "lostBefore": 0, "lostAfter": 0, "stallHeaders": 0, "stallBody": 0, "drop": 0, "duplicate": 0, "reorder": 0, "stallFrame": 0, "cut": 0, "batch": 0}, "actions": [{"kind": "send", "policy": "hello"}, {"kind": "repairOutage", "count": 5}, {"kind": "send", "policy": "hello"}, {"kind": "kill", "instance": 0, "downMs": 60000}]},
  },
  {
    name: "frames of a reply swapped, then its instance killed and the stream cut: after reconnect() the swapped text stayed (the same cause: reconnect() now reloads the stored page first)",
    schedule: {"seed": 1935685642, "instances": 1, "replayLimit": 1000, "stallMs": 45000, "rates": {"serverError": 0.021, "busy": 0, "lostBefore": 0, "lostAfter": 0, "stallHeaders": 0, "stallBody": 0.001, "drop": 0.0002, "duplicate": 0.0005, "reorder": 0.0132, "stallFrame": 0.0002, "cut": 0.0001, "batch": 0}, "actions": [{"kind": "send", "policy": "long 40"}, {"kind": "send", "policy": "hello"}, {"kind": "wait", "ms": 1111}, {"kind": "kill", "instance": 0, "downMs": 10000}, {"kind": "blip"}]},
  },
  {
    name: "the wall clock stepped back an hour between two replies: the listeners' throttle counted on Date, so the next notification waited the hour (a UI showed the second reply only then; found by the explorer's listener check)",
    schedule: {"seed": 1, "instances": 1, "replayLimit": 1000, "stallMs": 45000, "rates": {"serverError": 0, "busy": 0, "lostBefore": 0, "lostAfter": 0, "stallHeaders": 0, "stallBody": 0, "drop": 0, "duplicate": 0, "reorder": 0, "stallFrame": 0, "cut": 0, "batch": 0}, "actions": [{"kind": "send", "policy": "hello"}, {"kind": "wait", "ms": 2000}, {"kind": "clockJump", "ms": -3600000}, {"kind": "send", "policy": "hello"}]},
  },
  {
    name: "the session list read at open answered late (held 2 s), after the state_updated of a run: its older state replaced the event's at rest",
    schedule: {"seed":1371560901,"instances":1,"replayLimit":1000,"stallMs":3000,"rates":{"serverError":0,"busy":0,"lostBefore":0.001,"lostAfter":0,"stallHeaders":0.023000000000000003,"stallBody":0,"drop":0.0002,"duplicate":0.0005,"reorder":0.0003,"stallFrame":0.0002,"cut":0,"batch":0},"actions":[{"kind":"send","policy":"image"},{"kind":"send","policy":"task"}],"idleStream":"keep"},
  },
  {
    name: "a send whose POST the service applied, its connection reset before the answer; the check of it (the history) answering 503 twice: the send was rejected as if not taken, its error replaced the failed run's, and the reload's recovery then cleared it: status error at rest with error null (an outside attack's seed 901059, shrunk)",
    schedule: {"seed":950696033,"instances":1,"replayLimit":1000,"stallMs":3000,"rates":{"serverError":0,"busy":0.001,"lostBefore":0.001,"lostAfter":0.049,"stallHeaders":0,"stallBody":0,"drop":0.0002,"duplicate":0.0005,"reorder":0,"stallFrame":0,"cut":0.0001,"batch":0},"actions":[{"kind":"send","policy":"fail"},{"kind":"repairOutage","count":5},{"kind":"wait","ms":419}],"idleStream":"keep"},
  },
  {
    name: "the same through a POST held past the timeout and a send while lost: status error at rest with error null (an outside attack's seed 901684)",
    schedule: {"seed":0,"instances":1,"replayLimit":1000,"stallMs":3000,"rates":{"serverError":0,"busy":0,"lostBefore":0.001,"lostAfter":0.001,"stallHeaders":0.001,"stallBody":0.001,"drop":0.0002,"duplicate":0.0005,"reorder":0.0003,"stallFrame":0.0002,"cut":0.0001,"batch":0},"actions":[{"kind":"send","policy":"hello"},{"kind":"holdPost","ms":4001},{"kind":"sendWhileLost","policy":"fail"},{"kind":"wait","ms":3910},{"kind":"repairOutage","count":8},{"kind":"wait","ms":1875},{"kind":"answer","twice":false},{"kind":"answer","twice":false}],"idleStream":"keep"},
  },
];
