// Type tests of `agentscope-message/compat`: app code written as apps on
// `@agentscope-ai/agentscope` 0.0.15 write it (their own mutable types, block and event
// literals, enum comparisons, a store reducer) compiles against this package's types
// (`tsc -p tests/ts`, in the test command); lines marked with an expect-error directive
// must not compile. Run, it also folds a short reply.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  AssistantMsg,
  EventType,
  ReplyFinishedReason,
  UserMsg,
  appendEvent,
  appendEventImmutable,
  getContentBlocks,
  PermissionMode,
  createPermissionContext,
  type AgentEvent,
  type ContentBlock,
  type DataBlockDeltaEvent,
  type Msg,
  type PermissionContext,
  type PermissionRule,
  type ReadonlyMsg,
  type Task,
  type TaskContext,
  type ToolCallBlock,
  type UserConfirmResultEvent,
} from "../../pkg/dist/entry-compat.js";

// an app's own mutable types, as an app declares them next to the package's
interface AppPermissionRule {
  tool_name: string;
  rule_content: string | null;
  behavior: string;
  source: string;
}
interface AppMessage {
  id: string;
  name: string;
  role: string;
  content: ContentBlock[];
  created_at: string;
  finished_at: string | null;
  finished_reason: string | null;
  metadata: Record<string, unknown>;
}

/** A reply list as a React ref holds it: messages mutated in place. */
class Replies {
  msgs: Msg[] = [];
  current: Msg | null = null;
  audio: string[] = [];

  onEvent(event: AgentEvent): void {
    if (event.type === EventType.CUSTOM) {
      const name: string = event.name;
      const value: Record<string, unknown> = event.value;
      void [name, value];
      return;
    }
    if (event.type === EventType.REPLY_START) {
      const msg = AssistantMsg({ id: event.reply_id, name: event.name, content: [] });
      this.msgs = [...this.msgs, msg];
      this.current = msg;
    } else if (this.current) {
      appendEvent(this.current, event);
    }
    if (event.type === EventType.DATA_BLOCK_DELTA) {
      const e = event as DataBlockDeltaEvent;
      const chunk: string = e.data;
      if (e.media_type.startsWith("audio/")) this.audio.push(chunk);
    }
    if (event.type === EventType.REPLY_END) this.current = null;
  }

  /** The confirmation an app posts for a tool call it shows. */
  confirm(toolCall: ToolCallBlock, confirmed: boolean, replyId: string, rules?: ToolCallBlock["suggested_rules"]): UserConfirmResultEvent {
    return {
      type: EventType.USER_CONFIRM_RESULT,
      id: "e1",
      created_at: new Date().toISOString(),
      reply_id: replyId,
      confirm_results: [{ confirmed, tool_call: toolCall, rules: rules ?? null }],
    };
  }

  failed(msg: Msg): boolean {
    return msg.finished_reason === ReplyFinishedReason.ERROR;
  }
}

test("app code against 0.0.15's types compiles and runs", () => {
  // block literals as apps build them: no finished_at, no suggested_rules
  const now = new Date().toISOString();
  const text: ContentBlock = { type: "text", text: "hello", id: "t", created_at: now };
  const call: ToolCallBlock = { type: "tool_call", name: "Bash", id: "c", input: "{}", state: "asking", created_at: now };
  const user: Msg = UserMsg({ name: "user", content: [text] });
  // our objects into the app's own mutable types
  const own: AppMessage = user;
  own.content.push({ type: "text", text: "more", id: "t2", created_at: now });
  const created: string = user.created_at;
  const rules: AppPermissionRule[] = call.suggested_rules ?? [];
  rules.push({ tool_name: "Bash", rule_content: null, behavior: "allow", source: "user" });
  void [created, own];

  const replies = new Replies();
  replies.onEvent({ type: EventType.REPLY_START, id: "1", created_at: now, session_id: "s", reply_id: "r", name: "Friday" });
  replies.onEvent({ type: EventType.TEXT_BLOCK_START, id: "2", created_at: now, reply_id: "r", block_id: "b" });
  replies.onEvent({ type: EventType.TEXT_BLOCK_DELTA, id: "3", created_at: now, reply_id: "r", block_id: "b", delta: "hi" });
  replies.onEvent({ type: EventType.REPLY_END, id: "4", created_at: now, session_id: "s", reply_id: "r", finished_reason: ReplyFinishedReason.ERROR, error: { type: "upstream", message: "x" } });
  const [msg] = replies.msgs;
  assert.equal(getContentBlocks(msg!, "text")[0]!.text, "hi");
  assert.ok(replies.failed(msg!));
  assert.equal(replies.confirm(call, true, "r").type, "USER_CONFIRM_RESULT");

  // a store reducer (zustand / redux): the immutable form
  type State = { msgs: Msg[] };
  const reduce = (state: State, event: AgentEvent): State => ({
    msgs: state.msgs.map((m) => ("reply_id" in event && m.id === event.reply_id ? appendEventImmutable(m, event) : m)),
  });
  const next = reduce({ msgs: [msg!] }, { type: EventType.USER_INTERRUPT, id: "5", created_at: now, reply_id: "r" });
  assert.equal(next.msgs.length, 1);

  // the read-only view
  const view: ReadonlyMsg = msg!;
  // @ts-expect-error the read-only view has no writable fields
  view.name = "x";
  // @ts-expect-error nor writable lists
  view.content.push(text);
  // @ts-expect-error a delta is a string
  const bad: AgentEvent = { type: EventType.TEXT_BLOCK_DELTA, id: "6", created_at: now, reply_id: "r", block_id: "b", delta: 1 };
  void bad;
});

// The session panels of an app (the official web UI's permission and task panels): the
// session state arrives as JSON (`CUSTOM state_updated`, the session list) and is cast to
// the reference's `PermissionContext` and `TaskContext` (`/permission`, `/state`).
function rulesShown(ctx: PermissionContext | null): string[] {
  const shown: string[] = [];
  for (const dir of Object.values(ctx?.working_directories ?? {})) shown.push(`${dir.path} (${dir.source})`);
  const groups: [string, Record<string, PermissionRule[]> | undefined][] = [
    ["deny", ctx?.deny_rules],
    ["ask", ctx?.ask_rules],
    ["allow", ctx?.allow_rules],
  ];
  for (const [behavior, ruleMap] of groups) {
    for (const [tool, rules] of Object.entries(ruleMap ?? {})) shown.push(`${behavior} ${tool}: ${rules.map((r) => r.rule_content ?? "*").join(", ")}`);
  }
  return shown;
}

function openTasks(ctx: TaskContext | null): Task[] {
  const rank: Record<Task["state"], number> = { in_progress: 0, pending: 1, completed: 2 };
  return (ctx?.tasks ?? []).filter((t) => t.state !== "completed" && t.blocked_by.length === 0).sort((a, b) => rank[a.state] - rank[b.state]);
}

test("the permission and task contexts of a session's state, as the app's panels read them", () => {
  const value: Record<string, unknown> = JSON.parse(
    JSON.stringify({
      permission_context: {
        mode: "accept_edits",
        working_directories: { "/w": { path: "/w", source: "session" } },
        allow_rules: { Bash: [{ tool_name: "Bash", rule_content: "ls", behavior: "allow", source: "session" }] },
        deny_rules: {},
        ask_rules: {},
      },
      tasks_context: {
        tasks: [
          { id: "1", subject: "a", description: "", metadata: {}, created_at: "t", state: "pending", owner: null, blocks: [], blocked_by: [] },
          { id: "2", subject: "b", description: "", metadata: {}, created_at: "t", state: "in_progress", owner: "Friday", blocks: ["1"], blocked_by: [] },
        ],
      },
    }),
  );
  let permission: PermissionContext | null = null;
  let tasks: TaskContext | null = null;
  permission = value.permission_context as PermissionContext;
  tasks = value.tasks_context as TaskContext;
  assert.ok(permission.mode === PermissionMode.ACCEPT_EDITS);
  assert.deepEqual(rulesShown(permission), ["/w (session)", "allow Bash: ls"]);
  assert.deepEqual(openTasks(tasks).map((t) => t.id), ["2", "1"]);
  // the reference's factory, then the app's own edits (mutable)
  const fresh = createPermissionContext(PermissionMode.EXPLORE);
  fresh.ask_rules.Write = [{ tool_name: "Write", rule_content: null, behavior: "ask", source: "session" }];
  fresh.working_directories["/tmp"] = { path: "/tmp", source: "session" };
  assert.deepEqual(rulesShown(fresh), ["/tmp (session)", "ask Write: *"]);
  // @ts-expect-error a mode is one of the five strings
  const bad: PermissionContext["mode"] = "sometimes";
  void bad;
});

// One type family (issue 35, item 6): what an app writes through compat and what `Chat` /
// `useChat` hand out fit both ways where the data is the same. Checked by `tsc -p tests/ts`
// here, and by each supported TypeScript (5.9, 6.0, 7) over the same snippet below.
const oneFamily = `
import type { Chat, SendBlock } from "../../pkg/dist/chat.js";
import type { UseChatResult } from "../../pkg/dist/react.js";
import type { ContentBlock as ChatBlock, MsgJSON } from "../../pkg/dist/message.js";
import {
  DataBlock,
  TextBlock,
  UserMsg,
  getContentBlocks,
  getTextContent,
  hasContentBlocks,
  parseMsg,
  type ContentBlock,
  type Msg,
  type ReadonlyContentBlock,
  type ReadonlyMsg,
  type ThinkingBlock,
} from "../../pkg/dist/entry-compat.js";

export async function app(chat: Chat, hook: UseChatResult, block: ContentBlock, view: ReadonlyContentBlock, thinking: ThinkingBlock, mine: Msg): Promise<void> {
  // blocks built for compat can be sent (Chat.send and useChat().send)
  const blocks = [TextBlock({ text: "look" }), DataBlock({ source: { type: "url", url: "https://a.example/x.png", media_type: "image/png" } })];
  await chat.send(blocks);
  await hook.send(blocks);
  await chat.send([block, view, thinking]);
  await hook.send({ content: [block], metadata: mine.metadata });
  await chat.send(mine);
  await hook.send(UserMsg({ name: "user", content: "hi" }));
  // and the chat's own blocks back
  await chat.send(chat.messages[0]!.content);
  const sendable: SendBlock = block;
  // the chat's messages where compat reads messages
  const shown: readonly ReadonlyMsg[] = chat.messages;
  const fromHook: readonly ReadonlyMsg[] = hook.messages;
  const first: ReadonlyMsg = hook.messages[0]!;
  const text: string | null = getTextContent(first);
  const calls: string[] = getContentBlocks(chat.messages[0]!, "tool_call").map((c) => c.name);
  const any: boolean = hasContentBlocks(first, ["text", "data"]);
  const chatBlock: ChatBlock = chat.messages[0]!.content[0]!;
  const asView: ReadonlyContentBlock = chatBlock;
  // compat's messages are read-only views too, and the views are the chat's JSON
  const mineShown: readonly ReadonlyMsg[] = [mine, ...shown];
  const asChat: readonly MsgJSON[] = hook.messages;
  const copy: Msg = parseMsg(first);
  // the chat's messages are frozen: not a mutable Msg[] (appendEvent / push on them throw)
  // @ts-expect-error a frozen list is not a mutable Msg[]
  const mutable: Msg[] = chat.messages;
  // @ts-expect-error nor is one of its messages a mutable Msg
  const mutableOne: Msg = first;
  // @ts-expect-error a read-only view is not writable
  first.content[0] = block;
  // @ts-expect-error a user turn takes no unknown block type
  await chat.send([{ type: "image", url: "x" }]);
  void [sendable, fromHook, text, calls, any, asView, mineShown, asChat, copy, mutable, mutableOne];
}
`;

test("one type family: compat's types and the chat's, under TypeScript 5.9, 6.0 and 7", async () => {
  const { execFile } = await import("node:child_process");
  const { mkdirSync, mkdtempSync, rmSync, writeFileSync } = await import("node:fs");
  const { join } = await import("node:path");
  const { root } = await import("./helpers.ts");
  mkdirSync(join(root, "target"), { recursive: true });
  const dir = mkdtempSync(join(root, "target", "compat-family-"));
  try {
    // two levels under the root, as the snippet's imports expect
    writeFileSync(join(dir, "family.ts"), oneFamily);
    const options = {
      strict: true,
      skipLibCheck: false,
      // (TypeScript's own lib files are not checked again: see typescript.test.ts)
      skipDefaultLibCheck: true,
      noEmit: true,
      target: "es2022",
      module: "nodenext",
      moduleResolution: "nodenext",
      lib: ["es2022", "dom", "esnext.disposable"],
      types: ["node", "react"],
      typeRoots: [join(root, "node_modules/@types")],
    };
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: options, files: ["family.ts"] }));
    const compilers = { "5.9": "node_modules/typescript-5.9/bin/tsc", "6.0": "node_modules/typescript-6.0/bin/tsc", "7": "node_modules/typescript/bin/tsc" };
    const results = await Promise.all(
      Object.entries(compilers).map(
        ([version, tsc]) =>
          new Promise<[string, string]>((resolve) =>
            execFile("node", [join(root, tsc), "-p", dir, "--pretty", "false"], { cwd: dir, encoding: "utf8" }, (_e, out, err) => resolve([version, `${out}${err}`.trim()])),
          ),
      ),
    );
    for (const [version, output] of results) assert.equal(output, "", `TypeScript ${version}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
