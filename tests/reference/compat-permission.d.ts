import { PermissionBehavior } from "./compat-enums.js";
import type { AdditionalWorkingDirectory, PermissionContext, PermissionRule } from "./compat-types.js";
import { type Schema } from "./compat-parse.js";
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
export declare function createPermissionDecision(options: CreatePermissionDecisionOptions): Required<PermissionDecision>;
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
/**
 * Decides tool calls from a {@link PermissionContext} (shared and mutated: `addRule`
 * writes into it), with the SDK's ordered policies (those of agentscope's engine):
 * deny rules, then ask rules, then read-only inputs (allowed), then the tool's own check,
 * then allow rules, then the mode's fallback — `default` / `accept_edits` ask (an `ask`
 * of the tool marked `bypass_immune` is not overridden by allow rules), `explore` denies
 * whatever is not read-only, `bypass` allows, `dont_ask` turns every `ask` into `deny`.
 * A rule without `rule_content` matches every input of its tool.
 */
export declare class PermissionEngine {
    #private;
    readonly context: PermissionContext;
    constructor(context: PermissionContext);
    /** Adds a rule to the list of its behavior under its tool's name (`passthrough` is ignored). */
    addRule(rule: PermissionRule): void;
    /** The decision for one call of `tool` with `toolInput` under the context's mode.
     * Rejects with `MsgError` `invalid_argument` for an unknown mode. */
    checkPermission(tool: PermissionTool, toolInput: Record<string, unknown>): Promise<PermissionDecision>;
}
/** A permission rule: `tool_name`, `rule_content` (a string or null, required), `behavior`
 * (one of the four), `source`; validated by the core (as Python's `PermissionRule`). */
export declare const PermissionRuleSchema: Schema<PermissionRule>;
/** A working directory: `path` and `source`, both strings. */
export declare const AdditionalWorkingDirectorySchema: Schema<AdditionalWorkingDirectory>;
/**
 * A permission context: `mode` (`default` when absent), `working_directories` and the three
 * rule maps (`{}` when absent; each a map of tool name to rules). Unknown keys are dropped.
 */
export declare const PermissionContextSchema: Schema<PermissionContext>;
/** A decision, every key present: `behavior` and `message` required, the rest their defaults. */
export declare const PermissionDecisionSchema: Schema<Required<PermissionDecision>>;
/** Parses a permission rule ({@link PermissionRuleSchema}); `MsgError` `invalid_content`. */
export declare function parsePermissionRule(value: unknown): PermissionRule;
/** Parses a permission context, Python's defaults filled ({@link PermissionContextSchema}); `MsgError` `invalid_content`. */
export declare function parsePermissionContext(value: unknown): PermissionContext;
/** Parses a permission decision, defaults filled ({@link PermissionDecisionSchema}); `MsgError` `invalid_content`. */
export declare function parsePermissionDecision(value: unknown): PermissionDecision;
