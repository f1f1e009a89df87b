// The scripted model of scripts/agentscope-service.md (§ Scripted model policy), as
// scripts/agentscope_service.py's `_policy` builds it: one model turn's chunks, chosen by
// the first word of the last user message's text and by the tool results so far. Pure
// (no time, no ids): SimService turns the chunks into events and paces the sleeps.
import type { MsgJSON } from "../../pkg/dist/index.js";
import type { Json } from "../ts/helpers.ts";

/** One chunk of a model turn (a `delta` of the OpenAI stream), a pause, or the scripted failure. */
export type Step =
  | { kind: "text"; delta: string }
  | { kind: "thinking"; delta: string }
  | { kind: "call"; name: string; args: Json; input: string }
  | { kind: "audio"; index: number; transcript: string }
  | { kind: "sleep"; ms: number }
  | { kind: "fail" };

/** One model turn: its chunks in order. */
export type Turn = Step[];

/** A tool call as the model made it (id from the service's PRNG; `input` the JSON text streamed). */
export interface ToolCall {
  id: string;
  name: string;
  args: Json;
  input: string;
}

/** Python's `json.dumps` of plain data (", " and ": " separators, non-ASCII escaped). */
export function pyJson(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return `[${value.map(pyJson).join(", ")}]`;
  if (typeof value === "object") {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${pyJson(k)}: ${pyJson(v)}`)
      .join(", ")}}`;
  }
  if (typeof value === "string") return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return JSON.stringify(value);
}

/** `_split`: `text` in `n` pieces of ceil(len / n) characters (code points, as Python slices). */
export function split(text: string, n: number): string[] {
  const chars = Array.from(text);
  const k = Math.max(1, Math.min(n, chars.length));
  const size = Math.ceil(chars.length / k);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}

const texts = (...deltas: string[]): Step[] => deltas.map((delta) => ({ kind: "text", delta }));
const call = (name: string, args: Json): Step => ({ kind: "call", name, args, input: pyJson(args) });

/** Whether a Bash command is read-only (runs without asking): the scripted `echo` calls. */
export function isRunningKeyword(command: unknown): boolean {
  return typeof command === "string" && command.startsWith("echo ");
}

/** `<team-message from="…">BODY</team-message>` → BODY; other text as it is. */
function unwrapTeamMessage(text: string): string {
  if (!text.startsWith("<team-message")) return text;
  const body = text.slice(text.indexOf(">") + 1);
  const end = body.lastIndexOf("</team-message>");
  return (end < 0 ? body : body.slice(0, end)).trim();
}

/** What a user message carried besides text, as the OpenAI formatter hands it to the model (`_attachments`). */
export function describeAttachments(m: MsgJSON): string[] {
  const seen: string[] = [];
  for (const block of m.content) {
    if (block.type !== "data") continue;
    const source = block.source as Json;
    const media: string = source.media_type ?? "";
    if (media.startsWith("image/")) {
      seen.push(source.type === "base64" ? `${media} (base64, ${source.data.length} chars)` : `an image (url, ${source.url})`);
    } else if ((media === "audio/wav" || media === "audio/mp3" || media === "audio/mpeg") && source.type === "base64") {
      seen.push(`audio/${media === "audio/wav" ? "wav" : "mp3"} (base64, ${source.data.length} chars)`);
    } else if (media === "application/pdf" && source.type === "base64") {
      seen.push(`${media} (base64, ${source.data.length} chars, ${(block as Json).name ?? "file.pdf"})`);
    }
  }
  return seen;
}

/**
 * The model turn for the last user text `text` after the tool results `results` of this
 * reply (`_policy`): the table of § Scripted model policy. `attachments`: what the last user
 * message carried (`seeimage` / `describe`).
 */
export function scriptFor(text: string, results: readonly string[], attachments: readonly string[], pacing: { delayMs: number; slowMs: number }): Turn {
  const body = unwrapTeamMessage(text);
  const words = body.split(/\s+/).filter((w) => w !== "");
  const key = (words[0] ?? "").toLowerCase();
  const first = results.length === 0;
  const verdict = () => {
    const out = (results.at(-1) ?? "").toLowerCase();
    return out.includes("denied") || out.includes("reject") ? "denied" : "approved";
  };
  switch (key) {
    case "think":
      return [...["Let me ", "think about ", "this."].map((delta): Step => ({ kind: "thinking", delta })), ...texts("I thought ", "about it.")];
    case "tool":
      if (first) return [...texts("Running a tool."), call("Bash", { command: "echo tool-ok", description: "Print tool-ok" })];
      return texts("Tool said: ", `${(results.at(-1) ?? "").includes("tool-ok") ? "tool-ok" : "something else"}.`);
    case "parallel":
      if (first) return [call("Bash", { command: "echo one", description: "Print one" }), call("Bash", { command: "echo two", description: "Print two" })];
      return texts("Both tools ", "ran: one, two.");
    case "confirm":
      if (first) return [...texts("I need to create a file."), call("Bash", { command: "touch confirm.txt", description: "Create confirm.txt" })];
      return texts("The Bash call ", `was ${verdict()}.`);
    case "ask":
      if (first) {
        return [
          call("AskUser", {
            questions: [
              {
                question: "Which color do you prefer?",
                header: "Color",
                options: [
                  { label: "Red", description: "The color red" },
                  { label: "Blue", description: "The color blue" },
                ],
              },
            ],
          }),
        ];
      }
      return texts("You answered: ", results.at(-1) ?? "");
    case "image":
      return first ? [call("ScriptedImage", {})] : texts("Here is ", "the image.");
    case "long": {
      const n = words[1] !== undefined && /^\d+$/.test(words[1]) ? Number(words[1]) : 2000;
      return Array.from({ length: n }, (_, i): Step[] => [{ kind: "sleep", ms: pacing.delayMs }, { kind: "text", delta: `w${i} ` }]).flat();
    }
    case "fail":
      return [...texts("This ", "will ", "fail"), { kind: "fail" }];
    case "slow":
      return Array.from({ length: 20 }, (_, i): Step[] => [{ kind: "sleep", ms: pacing.slowMs }, { kind: "text", delta: `s${i} ` }]).flat();
    case "task":
      if (first) return [...texts("Creating a task."), call("TaskCreate", { subject: "Write the report", description: "Write the quarterly report." })];
      return texts("The task ", "is on the list.");
    case "audio":
      return AUDIO_TRANSCRIPT.map((transcript, index): Step => ({ kind: "audio", index, transcript }));
    case "seeimage":
    case "describe":
      return texts(...split(`I received ${attachments.length > 0 ? attachments.join("; ") : "no attachment"}.`, 2));
    case "progress":
      return first ? [call("ScriptedProgress", { steps: 3 })] : texts("The progress ", "tool finished.");
    default:
      return texts(...split(`You said: ${body}`, 4));
  }
}

const AUDIO_TRANSCRIPT = ["Here is ", "a short ", "beep."];

/**
 * The `audio` policy's three `delta.audio` chunks as the model streams them, base64: a
 * 440 Hz PCM16 tone at 24 kHz (146 samples, cut 50 / 48 / 48), the first prefixed with the
 * 44-byte streaming WAV header (sizes 0xFFFFFFFF) (§ Audio).
 */
export const WAV_CHUNKS_B64: readonly string[] = (() => {
  const pcm = new Uint8Array(146 * 2);
  const view = new DataView(pcm.buffer);
  for (let i = 0; i < 146; i++) view.setInt16(i * 2, Math.trunc(8000 * Math.sin((2 * Math.PI * 440 * i) / 24000)), true);
  const header = new Uint8Array(44);
  const h = new DataView(header.buffer);
  const ascii = (at: number, s: string) => Array.from(s).forEach((c, i) => h.setUint8(at + i, c.charCodeAt(0)));
  ascii(0, "RIFF");
  h.setUint32(4, 0xffffffff, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  h.setUint32(16, 16, true);
  h.setUint16(20, 1, true);
  h.setUint16(22, 1, true);
  h.setUint32(24, 24000, true);
  h.setUint32(28, 48000, true);
  h.setUint16(32, 2, true);
  h.setUint16(34, 16, true);
  ascii(36, "data");
  h.setUint32(40, 0xffffffff, true);
  const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
  const first = new Uint8Array(44 + 100);
  first.set(header);
  first.set(pcm.subarray(0, 100), 44);
  return Object.freeze([b64(first), b64(pcm.subarray(100, 196)), b64(pcm.subarray(196))]);
})();
