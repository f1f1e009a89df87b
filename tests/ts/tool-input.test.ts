// parseToolInput, the view of a tool call's streamed arguments: hand-worked cases, then
// every prefix of real and hard argument texts checked against the final JSON.parse
// (never a key, a type or a character the final value does not have), then mutated
// texts (never a throw; what JSON.parse reads, it reads the same).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { isDeepStrictEqual } from "node:util";
import { parseToolInput } from "../../pkg/dist/index.js";
import { conformanceCases, recordings, type Json } from "./helpers.ts";

test("parseToolInput: the five corruptions of issue 19 read as the text says", () => {
  const cases: [string, unknown][] = [
    ['{"text":"Hello, world: hi}', { text: "Hello, world: hi}" }],
    ['{"path":"src/lib/', { path: "src/lib/" }],
    ['{"overwrite": tru', {}],
    ['{"pa', {}],
    ['{"a":[-', { a: [] }],
  ];
  for (const [input, want] of cases) assert.deepEqual(parseToolInput(input), want, input);
});

test("parseToolInput: strings, keys, numbers and literals, worked out by hand", () => {
  const cases: [string, unknown][] = [
    ["", {}],
    [" \n\t", {}],
    ["{", {}],
    ['{"pa"', {}],
    ['{"pa":', {}],
    ['{"pa": "', { pa: "" }],
    ['{"a": [', { a: [] }],
    ['{"a": {"b', { a: {} }],
    ['{"a": [{"b": [', { a: [{ b: [] }] }],
    ['{"n": 12', {}],
    ['{"n": 12 ', { n: 12 }],
    ['{"n": 12,', { n: 12 }],
    ['{"n": 12}', { n: 12 }],
    ['{"n": 1.', {}],
    ['{"n": 1e', {}],
    ['{"n": 1e-', {}],
    ['{"n": -0.5e+3', {}],
    ['{"n": -0.5e+3}', { n: -500 }],
    ['{"a": [1, 2', { a: [1] }],
    ['{"a": [1, 2]', { a: [1, 2] }],
    ['{"t": true, "f": fals', { t: true }],
    ['{"t": true, "f": false, "n": nul', { t: true, f: false }],
    ['{"t": true, "f": false, "n": null', { t: true, f: false, n: null }],
    ['{"s": "a\\', { s: "a" }],
    ['{"s": "a\\n', { s: "a\n" }],
    ['{"s": "a\\"b\\\\', { s: 'a"b\\' }],
    ['{"s": "caf\\u00', { s: "caf" }],
    ['{"s": "caf\\u00e9', { s: "café" }],
    ['{"s": "x\\ud83d', { s: "x" }],
    ['{"s": "x\\ud83d\\', { s: "x" }],
    ['{"s": "x\\ud83d\\ude', { s: "x" }],
    ['{"s": "x\\ud83d\\ude00', { s: "x😀" }],
    ['{"s": "x\ud83d', { s: "x" }],
    ['{"s": "x😀', { s: "x😀" }],
    ['{"k\\"', {}],
    ['{"k\\"ey": 1}', { 'k"ey': 1 }],
    ['[1, "tw', [1, "tw"]],
    ["[", []],
    ["[-", []],
    ["12", 12],
    ["true", true],
    ['"ab', "ab"],
    [' {"a": {"b": true}} \n', { a: { b: true } }],
  ];
  for (const [input, want] of cases) assert.deepEqual(parseToolInput(input), want, input);
  const proto = parseToolInput('{"__proto__": {"x": 1}}') as Json;
  assert.equal(Object.getPrototypeOf(proto), Object.prototype, "a __proto__ key is not a prototype");
  assert.deepEqual(Object.getOwnPropertyDescriptor(proto, "__proto__")?.value, { x: 1 });
  assert.ok(Object.isFrozen(proto) && Object.isFrozen(proto.__proto__), "frozen throughout");
});

test("parseToolInput: text that is not the beginning of a JSON text reads as null", () => {
  const garbage = [
    "LOST", '{"a" 1', '{"a"::1', '{"a":1}}', "{}}", '{"a":1}x', '{"a":01}', '{"a":1.}', '{"a":1.5.2',
    '{"a":+1}', '{"a":.5}', '{"a":--1', '{"a":-}', '{"a":1e}', '{"a":1 2}', '{"a":tru}', '{"a":nulL',
    '{"pattern":"\\d+', '{"a":"x\\u12G', '{"a":"x\ny"}', '{"a":"\t"}', "{a:1}", "{,}", "[1,]", "[,1]",
    '{"a":1,}', '{"a":1]', '[1}', '[{"a":[1}]', "]", "{]", "[}", "\ufeff{}", "tx", '"\\x', "01", "-", "tru", "nul",
  ];
  for (const input of garbage) assert.equal(parseToolInput(input), null, JSON.stringify(input));
});

/** The argument texts in the repository: tool calls' `input` in the conformance fixtures
 * and TOOL_CALL_DELTA deltas joined per call in the fixtures and the recordings. */
function recordedArguments(): string[] {
  const texts = new Set<string>();
  const inputs = (v: Json): void => {
    if (Array.isArray(v)) v.forEach(inputs);
    else if (v !== null && typeof v === "object") {
      if (v.type === "tool_call" && typeof v.input === "string") texts.add(v.input);
      Object.values(v).forEach(inputs);
    }
  };
  const deltas = (events: Json[]): void => {
    const calls = new Map<string, string>();
    for (const e of events) {
      if (e.type !== "TOOL_CALL_DELTA") continue;
      const call = `${e.reply_id} ${e.tool_call_id}`;
      calls.set(call, (calls.get(call) ?? "") + e.delta);
    }
    for (const text of calls.values()) texts.add(text);
  };
  for (const [, fixture] of conformanceCases()) {
    inputs(fixture);
    deltas(fixture.events ?? []);
  }
  for (const dir of recordings()) {
    const lines = readFileSync(join(dir, "events.jsonl"), "utf8").split("\n").filter((l) => l !== "");
    deltas(lines.map((l) => JSON.parse(l)));
  }
  // the fixtures' deliberately broken inputs ("LOST", "") are for the garbage test
  return [...texts].filter((t) => {
    try {
      JSON.parse(t);
      return true;
    } catch {
      return false;
    }
  });
}

const HARD = [
  String.raw`{"s": "line\nbreak \"quoted\" back\\slash \u00e9 \ud83d\ude00 \uD83D\uDE00 end", "k\"ey\\": 1, "\u00e9t\u00E9": true}`,
  String.raw`{"x": "\/\b\f\r\t\\\"", "y": "\\", "z": "\"", "u": "\u0000\u001f\u2028"}`,
  String.raw`{"pair": "\ud83d\ude00\ud83d\ude00", "raw": "😀😀"}`,
  '{"city": "北京", "emoji": "😀👍🏽", "mixed": "a😀b", "flag": "🇫🇷"}',
  '{"a": -0.5e+3, "b": 1.25, "c": 1e-7, "d": 0, "e": -0, "f": 12345678901234567890, "g": 1E5, "h": [-1, 2.5e-3, 10], "i": 1.5E+10}',
  '{"a":1.5,"b":10,"c":[1e-2,0.0,100]}',
  '{"t": true, "f": false, "n": null, "arr": [true, false, null], "last": false}',
  '{"a": {"b": {"c": [1, [2, [3, {}]], []]}}, "e": {}, "l": [], "m": [[], {}, [[]]]}',
  '{"deep":[[[[[[["x"]]]]]]]}',
  "{}", "[]", '{"a":{}}', "[[]]", "[{}]", '{"a":[]}', '{"n":0}', '{"n":-0.0}', "[0,-0,1]",
  ' \n\t{ \r\n "a" \t : \n [ 1 , "x" , { } , -2 ] , "b"  :  null ,"c":true  } \n ',
  String.raw`{"\u0041\n\"": "v", "__proto__": {"x": 1}, "constructor": "c", "": "", "toString": 1}`,
  '[1, "two", {"three": 3}, [4], true, null, -5.5]',
  String.raw`{"command": "grep -rn \"TODO\" src/ | head -n 20", "timeout": 30, "env": {"LANG": "C.UTF-8"}, "paths": ["a b", "c\\d"]}`,
  '{"text":"Hello, world: hi}"}', '{"path":"src/lib/"}', '{"overwrite": true}', '{"pa": 1}', '{"a":[-1]}',
];

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const wellFormed = (s: string) => !LONE_SURROGATE.test(s);

/** Where `view` says what `final` does not (null when it says nothing else): every string
 * a prefix of the final one, without a lone surrogate the final one lacks; every number
 * and literal the final one; every key and index in the final value, of the same type. */
function contradiction(view: Json, final: Json, at = "$"): string | null {
  if (typeof final === "string") {
    if (typeof view !== "string" || !final.startsWith(view)) return `${at}: ${JSON.stringify(view)} for ${JSON.stringify(final)}`;
    if (wellFormed(final) && !wellFormed(view)) return `${at}: a lone surrogate in ${JSON.stringify(view)}`;
    return null;
  }
  if (final === null || typeof final !== "object") return Object.is(view, final) ? null : `${at}: ${JSON.stringify(view)} for ${final}`;
  if (Array.isArray(final)) {
    if (!Array.isArray(view) || view.length > final.length) return `${at}: ${JSON.stringify(view)} for an array of ${final.length}`;
    for (const [i, v] of view.entries()) {
      const found = contradiction(v, final[i], `${at}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (view === null || typeof view !== "object" || Object.getPrototypeOf(view) !== Object.prototype) return `${at}: ${JSON.stringify(view)} for an object`;
  for (const key of Object.keys(view)) {
    if (!Object.hasOwn(final, key)) return `${at}: key ${JSON.stringify(key)} is not in the final object`;
    const found = contradiction(view[key], final[key], `${at}.${key}`);
    if (found !== null) return found;
  }
  return null;
}

test("parseToolInput: every prefix of real and hard arguments reads as part of the final value", () => {
  const real = recordedArguments();
  assert.ok(real.length >= 100, `${real.length} argument texts in the fixtures and recordings`);
  let prefixes = 0;
  for (const text of [...real, ...HARD]) {
    const final = JSON.parse(text);
    let previous: unknown;
    for (let n = 0; n < text.length; n++) {
      const prefix = text.slice(0, n);
      const view = parseToolInput(prefix); // throws: the test fails here
      prefixes++;
      if (prefix.trim() === "") {
        assert.deepEqual(view, {}, JSON.stringify(prefix));
        continue;
      }
      const found = contradiction(view, final);
      assert.equal(found, null, `${JSON.stringify(prefix)} → ${JSON.stringify(view)}`);
      // what one prefix shows, the next one shows too (grown, never changed)
      if (previous !== undefined) assert.equal(contradiction(previous, view), null, `${JSON.stringify(prefix)} dropped some of ${JSON.stringify(previous)}`);
      previous = view;
    }
    assert.deepEqual(parseToolInput(text), final, text);
  }
  assert.ok(prefixes > 4500, `${prefixes} prefixes`);
});

test("parseToolInput: mutated arguments never throw, and what JSON.parse reads reads the same", () => {
  let seed = 19;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const alphabet = '{}[]",:\\ u0123456789-+.eEtrufalsn\ud83d\ude00x\n';
  let parsed = 0;
  for (const text of [...recordedArguments(), ...HARD, "LOST"]) {
    for (let k = 0; k < 50; k++) {
      let s = text;
      for (let edits = 1 + random(3); edits > 0; edits--) {
        const i = random(s.length + 1);
        const c = alphabet[random(alphabet.length)]!;
        const edit = random(3);
        s = s.slice(0, i) + (edit === 2 ? "" : c) + s.slice(edit === 0 ? i : i + 1);
      }
      const view = parseToolInput(s);
      let final: unknown;
      try {
        final = JSON.parse(s);
      } catch {
        continue;
      }
      parsed++;
      assert.ok(isDeepStrictEqual(view, final), `${JSON.stringify(s)} → ${JSON.stringify(view)}`);
    }
  }
  assert.ok(parsed > 1000, `${parsed} mutated texts were still JSON`);
});

test("deep nesting never throws (the view is frozen without recursion)", () => {
  // 100,000 open brackets: JSON.parse would take the closed text; the view of the prefix
  // is 100,000 nested arrays (or the object holding them), frozen
  let view = parseToolInput("[".repeat(100_000)) as unknown[];
  let depth = 0;
  while (Array.isArray(view) && view.length <= 1) {
    assert.ok(Object.isFrozen(view));
    depth++;
    if (view.length === 0) break;
    view = view[0] as unknown[];
  }
  assert.equal(depth, 100_000);
  const object = parseToolInput(`{"a":${"[".repeat(100_000)}`) as { a: unknown[] };
  assert.ok(Array.isArray(object.a) && Object.isFrozen(object.a));
});
