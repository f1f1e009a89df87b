// What the chat's actions post, made from what the app gives (`send`, `post`, `confirm`,
// `submitExternal`): user messages checked as `Msg`, and the answer events of
// `POST /chat/`. Pure (no request); errors are `MsgError` (`invalid_argument`, or the
// model's own for a message the reference refuses).
import { LONE_SURROGATE, MsgError, bodyJSON, toJSONText } from "./errors.js";
import { Msg, UserMsg, type ContentBlockInput, type MsgJSON } from "./message.js";
import type { ChatPendingAction } from "./app-state.js";
import type { ExternalResult, SendInput } from "./chat-types.js";
import type { ChatInput, ExternalExecutionResultInput, UserConfirmResultInput } from "./transport.js";

/** The user message `send` posts for `input` (text and blocks named `userName`), checked as a `Msg`. */
export function sendMessage(input: SendInput, userName: string): MsgJSON {
  if (typeof input === "string" && LONE_SURROGATE.test(input)) {
    throw new MsgError("invalid_argument", "send: the text has a lone surrogate (not Unicode text)");
  }
  // (one code whatever the shape: text, blocks, {content, metadata}, a message's JSON)
  if (!(input instanceof Msg)) bodyJSON(input, "send: the message");
  let msg: MsgJSON;
  if (input instanceof Msg) {
    msg = input.toJSON();
  } else {
    let made: Msg;
    if (typeof input === "string" || Array.isArray(input)) {
      made = new UserMsg({ name: userName, content: input as string | ContentBlockInput[] });
    } else if (typeof input === "object" && input !== null && !("role" in input) && "content" in input) {
      const { content, metadata } = input as { content: string | ContentBlockInput[]; metadata?: Record<string, unknown> };
      made = new UserMsg({ name: userName, content, ...(metadata === undefined ? {} : { metadata }) });
    } else {
      made = Msg.fromJSON(toJSONText(input, "a message"));
    }
    msg = made.toJSON();
    made.free();
  }
  if (msg.role !== "user") throw new MsgError("invalid_argument", `send takes a user message, got role ${msg.role}`);
  return msg;
}

/**
 * What `post` was given: an answer (a `USER_CONFIRM_RESULT` / `EXTERNAL_EXECUTION_RESULT`:
 * the calls it answers and the reply named) or user messages (each checked as a `Msg`).
 */
export function postedInput(input: ChatInput):
  | { readonly kind: "answer"; readonly confirm: boolean; readonly callIds: readonly string[]; readonly replyId: unknown }
  | { readonly kind: "messages"; readonly msgs: readonly MsgJSON[] } {
  const event = input as { type?: unknown; reply_id?: unknown; confirm_results?: unknown; execution_results?: unknown } | null;
  if (event !== null && typeof event === "object" && (event.type === "USER_CONFIRM_RESULT" || event.type === "EXTERNAL_EXECUTION_RESULT")) {
    const confirm = event.type === "USER_CONFIRM_RESULT";
    const results = confirm ? event.confirm_results : event.execution_results;
    if (!Array.isArray(results) || results.length === 0) throw new MsgError("invalid_argument", `post: a ${String(event.type)} needs its results`);
    const callIds = results.map((r: { id?: unknown; tool_call?: { id?: unknown } }) => (confirm ? r?.tool_call?.id : r?.id) as string);
    return { kind: "answer", confirm, callIds, replyId: event.reply_id };
  }
  const list = Array.isArray(input) ? (input as readonly unknown[]) : [input];
  if (input === null || list.length === 0) throw new MsgError("invalid_argument", "post takes user message(s), a USER_CONFIRM_RESULT or an EXTERNAL_EXECUTION_RESULT");
  const msgs = list.map((one) => {
    if (!(one instanceof Msg)) bodyJSON(one, "post: the message");
    const made = one instanceof Msg ? one : Msg.fromJSON(toJSONText(one, "a message"));
    const json = made.toJSON();
    if (made !== one) made.free();
    if (json.role !== "user") throw new MsgError("invalid_argument", `post takes user messages, got role ${json.role}`);
    return json;
  });
  return { kind: "messages", msgs };
}

/** The `USER_CONFIRM_RESULT` answering `action` (`rules`: permission rules to remember). */
export function confirmEvent(action: ChatPendingAction, confirmed: boolean, rules: readonly unknown[] | null | undefined): UserConfirmResultInput {
  if (rules !== undefined && rules !== null && !Array.isArray(rules)) throw new MsgError("invalid_argument", "confirm: rules must be a list (of permission rules) or null");
  const result: Record<string, unknown> = { confirmed, tool_call: action.toolCall };
  if (rules !== undefined) result.rules = rules;
  return { type: "USER_CONFIRM_RESULT", reply_id: action.replyId, confirm_results: [result] } as unknown as UserConfirmResultInput;
}

/** The results given to `submitExternal`, as a list; `invalid_argument` for none or one that is not an object. */
export function externalResults(results: ExternalResult | readonly ExternalResult[]): readonly ExternalResult[] {
  const list = Array.isArray(results) ? (results as readonly ExternalResult[]) : [results as ExternalResult];
  if (list.length === 0) throw new MsgError("invalid_argument", "submitExternal takes at least one result");
  for (const r of list) {
    if (typeof r !== "object" || r === null) throw new MsgError("invalid_argument", "a result must be {toolCallId, output}");
    if (typeof r.output !== "string" && !Array.isArray(r.output)) throw new MsgError("invalid_argument", "a result's output must be a string or a list of blocks");
    if (r.state !== undefined && !["success", "error", "interrupted", "denied"].includes(r.state)) throw new MsgError("invalid_argument", "a result's state must be success, error, interrupted or denied");
    if (r.metadata !== undefined && (typeof r.metadata !== "object" || r.metadata === null || Array.isArray(r.metadata))) throw new MsgError("invalid_argument", "a result's metadata must be an object");
  }
  return list;
}

/** The `EXTERNAL_EXECUTION_RESULT` of `list`, answering `actions` (one per result, of one reply). */
export function externalEvent(list: readonly ExternalResult[], actions: readonly ChatPendingAction[]): ExternalExecutionResultInput {
  const replyId = actions[0]!.replyId;
  if (actions.some((a) => a.replyId !== replyId)) throw new MsgError("invalid_argument", "the results answer calls of different replies");
  const execution_results = list.map((r, i) => ({
    type: "tool_result",
    id: r.toolCallId,
    name: actions[i]!.toolCall.name,
    output: r.output,
    state: r.state ?? "success",
    ...(r.metadata === undefined ? {} : { metadata: r.metadata }),
  }));
  return { type: "EXTERNAL_EXECUTION_RESULT", reply_id: replyId, execution_results } as unknown as ExternalExecutionResultInput;
}
