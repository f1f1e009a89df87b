// The rest of `@agentscope-ai/agentscope/permission` (`agentscope-message/compat`):
// `PermissionDecision` and `createPermissionDecision`, the rule engine `PermissionEngine`
// (its tools' structural contract `PermissionTool`), and the schemas and parsers of rules,
// working directories, contexts and decisions. The wire shapes are those of agentscope
// 2.0.11's `agentscope.permission` (`PermissionRule`, `PermissionContext`,
// `PermissionDecision`); a rule is validated by the wasm core (as a tool call's
// `suggested_rules`), the other shapes here (the core has no model of them).
import { MsgError } from "./errors.js";
import { PermissionBehavior, PermissionMode } from "./compat-enums.js";
import type { AdditionalWorkingDirectory, PermissionContext, PermissionRule, ToolCallBlock } from "./compat-types.js";
import { coreBlocks } from "./compat-blocks.js";
import { objectOf, schema, type Schema } from "./compat-parse.js";

/**
 * The outcome of a permission check (Python's `PermissionDecision` dataclass): the
 * behavior, a message, and optionally why, a rewritten input, suggested rules, and whether
 * an `ask` may not be turned into `allow` by an allow rule (`bypass_immune`).
 */
export interface PermissionDecision {
  behavior: PermissionBehavior;
  message: string;
  decision_reason?: string | null;
  updated_input?: Record<string, unknown> | null;
  suggested_rules?: PermissionRule[] | null;
  bypass_immune?: boolean;
}

/** What {@link createPermissionDecision} takes (camelCase, as the SDK's). */
export interface CreatePermissionDecisionOptions {
  behavior: PermissionBehavior;
  message: string;
  decisionReason?: string | null;
  updatedInput?: Record<string, unknown> | null;
  suggestedRules?: PermissionRule[] | null;
  bypassImmune?: boolean;
}

/**
 * A complete decision, every key present with the dataclass's defaults
 * (`decision_reason`, `updated_input`, `suggested_rules` null, `bypass_immune` false), as
 * the SDK's `createPermissionDecision`. Throws `MsgError` `invalid_argument` for a
 * behavior that is not one of the four or a message that is not a string.
 */
export function createPermissionDecision(options: CreatePermissionDecisionOptions): Required<PermissionDecision> {
  const o = objectOf(options, "invalid_argument", "createPermissionDecision's options") as Partial<CreatePermissionDecisionOptions>;
  return PermissionDecisionSchema.parse({
    behavior: o.behavior,
    message: o.message,
    decision_reason: o.decisionReason ?? null,
    updated_input: o.updatedInput ?? null,
    suggested_rules: o.suggestedRules ?? null,
    bypass_immune: o.bypassImmune ?? false,
  }) as Required<PermissionDecision>;
}

/** A value, or a promise of it (what a tool's hooks may return). */
export type MaybePromise<V> = V | Promise<V>;

/** What {@link PermissionEngine} needs of a tool: its name and four hooks. */
export interface PermissionTool {
  name: string;
  /** The tool's own decision for this input (`passthrough` to leave it to the rules). */
  checkPermissions(toolInput: Record<string, unknown>, context: PermissionContext): MaybePromise<PermissionDecision>;
  /** Whether this input only reads (then it is allowed outright). */
  checkReadOnly(toolInput: Record<string, unknown>): MaybePromise<boolean>;
  /** Whether a rule's `rule_content` matches this input. */
  matchRule(ruleContent: string, toolInput: Record<string, unknown>): MaybePromise<boolean>;
  /** Rules to suggest when the user is asked. */
  generateSuggestions(toolInput: Record<string, unknown>): MaybePromise<PermissionRule[]>;
}

type RuleBehavior = "allow" | "deny" | "ask";

/**
 * Decides tool calls from a {@link PermissionContext} (shared and mutated: `addRule`
 * writes into it), with the SDK's ordered policies (those of agentscope's engine):
 * deny rules, then ask rules, then read-only inputs (allowed), then the tool's own check,
 * then allow rules, then the mode's fallback — `default` / `accept_edits` ask (an `ask`
 * of the tool marked `bypass_immune` is not overridden by allow rules), `explore` denies
 * whatever is not read-only, `bypass` allows, `dont_ask` turns every `ask` into `deny`.
 * A rule without `rule_content` matches every input of its tool.
 */
export class PermissionEngine {
  readonly context: PermissionContext;

  constructor(context: PermissionContext) {
    this.context = context;
  }

  /** Adds a rule to the list of its behavior under its tool's name (`passthrough` is ignored). */
  addRule(rule: PermissionRule): void {
    const lists = this.#rules(rule.behavior);
    if (lists === undefined) return;
    if (!Object.prototype.hasOwnProperty.call(lists, rule.tool_name)) {
      Object.defineProperty(lists, rule.tool_name, { value: [], writable: true, enumerable: true, configurable: true });
    }
    lists[rule.tool_name]!.push(rule);
  }

  /** The decision for one call of `tool` with `toolInput` under the context's mode.
   * Rejects with `MsgError` `invalid_argument` for an unknown mode. */
  async checkPermission(tool: PermissionTool, toolInput: Record<string, unknown>): Promise<PermissionDecision> {
    const mode = this.context.mode;
    if (!(Object.values(PermissionMode) as string[]).includes(mode)) {
      throw new MsgError("invalid_argument", `Unknown permission mode: ${String(mode)}`);
    }
    const deny = await this.#matching(tool, toolInput, "deny");
    if (deny) return deny;
    const ask = await this.#matching(tool, toolInput, "ask");
    if (ask) {
      const asked = await this.#suggest(ask, tool, toolInput);
      return mode === "dont_ask" ? this.#askToDeny(tool, asked) : asked;
    }
    if (await tool.checkReadOnly(toolInput)) {
      return createPermissionDecision({
        behavior: "allow",
        message: `Permission granted for ${tool.name} (read-only invocation)`,
        decisionReason: "Read-only operations are auto-allowed",
      });
    }
    if (mode === "explore") {
      return createPermissionDecision({
        behavior: "deny",
        message: `Permission denied for ${tool.name} (explore mode is read-only)`,
        decisionReason: "Explore mode does not allow modifications",
      });
    }
    const own = await tool.checkPermissions(toolInput, this.context);
    if (own.behavior === "allow" || own.behavior === "deny") return own;
    if (mode !== "bypass" && own.behavior === "ask" && own.bypass_immune === true) {
      const asked = await this.#suggest(own, tool, toolInput);
      return mode === "dont_ask" ? this.#askToDeny(tool, asked) : asked;
    }
    const allow = await this.#matching(tool, toolInput, "allow");
    if (allow) return allow;
    if (mode === "bypass") {
      return createPermissionDecision({
        behavior: "allow",
        message: `Permission granted for ${tool.name} (bypass mode)`,
        decisionReason: "Bypass mode allows all operations",
      });
    }
    if (mode === "dont_ask") {
      return createPermissionDecision({
        behavior: "deny",
        message: `Permission denied for ${tool.name} (dont_ask mode - user not available)`,
        decisionReason: "User is not available to answer permission prompts",
      });
    }
    return this.#suggest(
      createPermissionDecision({ behavior: "ask", message: `Permission required for ${tool.name}`, decisionReason: `Mode: ${mode}` }),
      tool,
      toolInput,
    );
  }

  #rules(behavior: string): Record<string, PermissionRule[]> | undefined {
    if (behavior === "allow") return this.context.allow_rules;
    if (behavior === "deny") return this.context.deny_rules;
    if (behavior === "ask") return this.context.ask_rules;
    return undefined;
  }

  /** The decision of the first rule of `behavior` for the tool that matches the input. */
  async #matching(tool: PermissionTool, toolInput: Record<string, unknown>, behavior: RuleBehavior): Promise<PermissionDecision | undefined> {
    const lists = this.#rules(behavior)!;
    const rules = Object.prototype.hasOwnProperty.call(lists, tool.name) ? lists[tool.name]! : [];
    for (const rule of rules) {
      if (rule.rule_content && !(await tool.matchRule(rule.rule_content, toolInput))) continue;
      if (behavior === "allow") {
        return createPermissionDecision({ behavior, message: `Permission granted for ${tool.name}`, updatedInput: toolInput });
      }
      return createPermissionDecision({
        behavior,
        message: behavior === "deny" ? `Permission to use ${tool.name} has been denied` : `Permission required for ${tool.name}`,
        decisionReason: `Rule: ${String(rule.rule_content)}`,
      });
    }
    return undefined;
  }

  async #suggest(decision: PermissionDecision, tool: PermissionTool, toolInput: Record<string, unknown>): Promise<PermissionDecision> {
    decision.suggested_rules = await tool.generateSuggestions(toolInput);
    return decision;
  }

  #askToDeny(tool: PermissionTool, ask: PermissionDecision): PermissionDecision {
    return createPermissionDecision({
      behavior: "deny",
      message: `Permission denied for ${tool.name} (dont_ask mode - ASK converted to DENY, user not available)`,
      decisionReason: `DONT_ASK mode converted ASK to DENY. Original reason: ${String(ask.decision_reason)}`,
      suggestedRules: ask.suggested_rules ?? null,
    });
  }
}

/** A permission rule: `tool_name`, `rule_content` (a string or null, required), `behavior`
 * (one of the four), `source`; validated by the core (as Python's `PermissionRule`). */
export const PermissionRuleSchema: Schema<PermissionRule> = schema((input) => {
  const rule = objectOf(input, "invalid_content", "a permission rule");
  const call = coreBlocks([{ type: "tool_call", id: "-", name: "-", input: "", created_at: "-", suggested_rules: [rule] }])[0] as ToolCallBlock;
  return call.suggested_rules![0]!;
});

function text(value: unknown, what: string): string {
  if (typeof value !== "string") throw new MsgError("invalid_content", `${what} must be a string, got ${value === null ? "null" : typeof value}`);
  return value;
}

/** A map of own data properties (no key reaches a prototype). */
function recordOf<V>(value: unknown, what: string, item: (v: unknown, key: string) => V): Record<string, V> {
  const o = objectOf(value, "invalid_content", what);
  const out: Record<string, V> = {};
  for (const [key, v] of Object.entries(o)) {
    Object.defineProperty(out, key, { value: item(v, key), writable: true, enumerable: true, configurable: true });
  }
  return out;
}

/** A working directory: `path` and `source`, both strings. */
export const AdditionalWorkingDirectorySchema: Schema<AdditionalWorkingDirectory> = schema((input) => {
  const o = objectOf(input, "invalid_content", "a working directory");
  return { path: text(o.path, "a working directory's path"), source: text(o.source, "a working directory's source") };
});

/**
 * A permission context: `mode` (`default` when absent), `working_directories` and the three
 * rule maps (`{}` when absent; each a map of tool name to rules). Unknown keys are dropped.
 */
export const PermissionContextSchema: Schema<PermissionContext> = schema((input) => {
  const o = objectOf(input, "invalid_content", "a permission context");
  const mode = o.mode ?? PermissionMode.DEFAULT;
  if (!(Object.values(PermissionMode) as unknown[]).includes(mode)) {
    throw new MsgError("invalid_content", `a permission context's mode must be one of ${Object.values(PermissionMode).join(", ")}, got ${JSON.stringify(mode)}`);
  }
  const rules = (value: unknown, what: string) =>
    recordOf(value ?? {}, what, (list, tool) => {
      if (!Array.isArray(list)) throw new MsgError("invalid_content", `${what}[${JSON.stringify(tool)}] must be a list of rules`);
      return list.map((r) => PermissionRuleSchema.parse(r));
    });
  return {
    mode: mode as PermissionMode,
    working_directories: recordOf(o.working_directories ?? {}, "working_directories", (d) => AdditionalWorkingDirectorySchema.parse(d)),
    allow_rules: rules(o.allow_rules, "allow_rules"),
    deny_rules: rules(o.deny_rules, "deny_rules"),
    ask_rules: rules(o.ask_rules, "ask_rules"),
  };
});

/** A decision, every key present: `behavior` and `message` required, the rest their defaults. */
export const PermissionDecisionSchema: Schema<Required<PermissionDecision>> = schema((input) => {
  const o = objectOf(input, "invalid_content", "a permission decision");
  if (!(Object.values(PermissionBehavior) as unknown[]).includes(o.behavior)) {
    throw new MsgError("invalid_content", `a decision's behavior must be one of ${Object.values(PermissionBehavior).join(", ")}, got ${JSON.stringify(o.behavior)}`);
  }
  const reason = o.decision_reason ?? null;
  if (reason !== null) text(reason, "decision_reason");
  const updated = o.updated_input ?? null;
  const suggested = o.suggested_rules ?? null;
  if (suggested !== null && !Array.isArray(suggested)) throw new MsgError("invalid_content", "suggested_rules must be a list or null");
  const immune = o.bypass_immune ?? false;
  if (typeof immune !== "boolean") throw new MsgError("invalid_content", "bypass_immune must be a boolean");
  return {
    behavior: o.behavior as PermissionBehavior,
    message: text(o.message, "a decision's message"),
    decision_reason: reason as string | null,
    updated_input: updated === null ? null : recordOf(updated, "updated_input", (v) => v),
    suggested_rules: suggested === null ? null : suggested.map((r) => PermissionRuleSchema.parse(r)),
    bypass_immune: immune,
  };
});

/** Parses a permission rule ({@link PermissionRuleSchema}); `MsgError` `invalid_content`. */
export function parsePermissionRule(value: unknown): PermissionRule {
  return PermissionRuleSchema.parse(value);
}

/** Parses a permission context, Python's defaults filled ({@link PermissionContextSchema}); `MsgError` `invalid_content`. */
export function parsePermissionContext(value: unknown): PermissionContext {
  return PermissionContextSchema.parse(value);
}

/** Parses a permission decision, defaults filled ({@link PermissionDecisionSchema}); `MsgError` `invalid_content`. */
export function parsePermissionDecision(value: unknown): PermissionDecision {
  return PermissionDecisionSchema.parse(value);
}
