// The built declarations are diffed against the committed reference in
// tests/reference/, so that an API change is a visible diff. After an intended change:
// UPDATE_REFERENCE=1 ./scripts/test (or node --import tsx --test tests/ts/dts.test.ts).
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { root } from "./helpers.ts";

const files: [string, string][] = [
  ["pkg/dist/wasm/agentscope_message.d.ts", "agentscope_message.d.ts"],
  ["pkg/dist/index.d.ts", "index.d.ts"],
  ["pkg/dist/message.d.ts", "message.d.ts"],
  ["pkg/dist/event.d.ts", "event.d.ts"],
  ["pkg/dist/event-type.d.ts", "event-type.d.ts"],
  ["pkg/dist/api.d.ts", "api.d.ts"],
  ["pkg/dist/load.d.ts", "load.d.ts"],
  ["pkg/dist/constants.d.ts", "constants.d.ts"],
  ["pkg/dist/explicit.d.ts", "explicit.d.ts"],
  ["pkg/dist/errors.d.ts", "errors.d.ts"],
  ["pkg/dist/session.d.ts", "session.d.ts"],
  ["pkg/dist/react.d.ts", "react.d.ts"],
  ["pkg/dist/vue.d.ts", "vue.d.ts"],
  ["pkg/dist/svelte.d.ts", "svelte.d.ts"],
  ["pkg/dist/angular.d.ts", "angular.d.ts"],
  ["pkg/dist/assistant-ui.d.ts", "assistant-ui.d.ts"],
  ["pkg/dist/binding.d.ts", "binding.d.ts"],
  ["pkg/dist/chat.d.ts", "chat.d.ts"],
  ["pkg/dist/chat-types.d.ts", "chat-types.d.ts"],
  ["pkg/dist/sessions.d.ts", "sessions.d.ts"],
  ["pkg/dist/entry-compat.d.ts", "entry-compat.d.ts"],
  ["pkg/dist/entry-compat-init.d.ts", "entry-compat-init.d.ts"],
  ["pkg/dist/compat.d.ts", "compat.d.ts"],
  ["pkg/dist/compat-msg.d.ts", "compat-msg.d.ts"],
  ["pkg/dist/compat-fold.d.ts", "compat-fold.d.ts"],
  ["pkg/dist/compat-types.d.ts", "compat-types.d.ts"],
  ["pkg/dist/compat-enums.d.ts", "compat-enums.d.ts"],
  ["pkg/dist/compat-blocks.d.ts", "compat-blocks.d.ts"],
  ["pkg/dist/compat-parse.d.ts", "compat-parse.d.ts"],
  ["pkg/dist/compat-permission.d.ts", "compat-permission.d.ts"],
  ["pkg/dist/compat-state.d.ts", "compat-state.d.ts"],
  ["pkg/dist/transport.d.ts", "transport.d.ts"],
  ["pkg/dist/app-state.d.ts", "app-state.d.ts"],
];

for (const [built, reference] of files) {
  test(`${built} matches tests/reference/${reference}`, () => {
    const actual = readFileSync(join(root, built), "utf8");
    const path = join(root, "tests/reference", reference);
    if (process.env.UPDATE_REFERENCE === "1") writeFileSync(path, actual);
    const expected = readFileSync(path, "utf8");
    if (actual !== expected) {
      const a = actual.split("\n");
      const e = expected.split("\n");
      const line = a.findIndex((l, i) => l !== e[i]);
      assert.fail(
        `${built} differs from the reference at line ${line + 1}:\n  built:     ${a[line]}\n  reference: ${e[line]}\n` +
          "If the API change is intended, run UPDATE_REFERENCE=1 ./scripts/test and commit tests/reference/.",
      );
    }
  });
}
