// What is compared between the live service and SimService: values that are random or
// time-bound on both sides (ids, timestamps, the hint's current time, workspace paths)
// replaced by stable placeholders; everything else (texts, block types, order, states,
// finished_reason, usage, the shape of every event) kept.
import { nullRecordingVolatiles, thaw, type Json } from "../ts/helpers.ts";

const ID = /^(call_[0-9a-f]{16}|[0-9a-f]{32})$/;
const EMBEDDED_ID = /[0-9a-f]{32}/g;
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?$/;
const CURRENT_TIME = /<current-time>[^<]*<\/current-time>/;

/** A normalizer: ids become `ID1`, `ID2`, … in order of first sight (so equal ids stay equal). */
export function normalizer(): (value: Json) => Json {
  const ids = new Map<string, string>();
  const id = (s: string) => {
    if (!ids.has(s)) ids.set(s, `ID${ids.size + 1}`);
    return ids.get(s)!;
  };
  const str = (s: string): string => {
    if (ID.test(s)) return id(s);
    if (TIME.test(s)) return "TIME";
    if (s.includes("/ws/")) return "WS";
    return s.replace(CURRENT_TIME, "<current-time>NOW</current-time>").replace(EMBEDDED_ID, (m) => id(m));
  };
  const walk = (v: Json): Json => {
    if (typeof v === "string") return str(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [str(k), walk(x)]));
    return v;
  };
  return walk;
}

/** Stored messages as compared: the reducer's own volatiles nulled (helpers.ts), then normalized. */
export function storedForm(messages: readonly Json[], norm: (v: Json) => Json): Json[] {
  return messages.map((m) => {
    const copy = thaw(m);
    nullRecordingVolatiles(copy);
    return norm(copy);
  });
}

/** Events as compared: normalized, whole. */
export function eventForm(events: readonly Json[], norm: (v: Json) => Json): Json[] {
  return events.map((e) => norm(thaw(e)));
}
