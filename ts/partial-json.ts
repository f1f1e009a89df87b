// Partial JSON: what a prefix of a JSON text already says, and nothing the rest of the
// text could contradict. One pass over the text with a stack of the open arrays and
// objects; a container is put in its parent when it opens and filled in place.

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const NUMBER_CHARS = /[-+.eE0-9]/;
const ESCAPED = '"\\/bfnrt';
const UNESCAPED = '"\\/\b\f\n\r\t';
const LITERALS: [string, unknown][] = [["true", true], ["false", false], ["null", null]];

type Container = unknown[] | Record<string, unknown>;

const isSpace = (c: string) => c === " " || c === "\n" || c === "\r" || c === "\t";

/** `value` without a last code unit that is the first half of a surrogate pair. */
function wholeCharacters(value: string): string {
  const last = value.charCodeAt(value.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? value.slice(0, -1) : value;
}

/**
 * The string that starts at `text[start]` (a `"`), decoded: `end` is the index after its
 * closing quote, or undefined when the text ends first (then an escape cut short and half
 * a surrogate pair are left out of `value`); null when it cannot be a JSON string.
 */
function readString(text: string, start: number): { value: string; end: number | undefined } | null {
  let value = "";
  let run = start + 1; // the first character not yet copied to `value`
  let i = run;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return { value: value + text.slice(run, i), end: i + 1 };
    if (c < 0x20) return null;
    if (c !== 0x5c) {
      i++;
      continue;
    }
    value += text.slice(run, i);
    const escape = text[i + 1];
    if (escape === undefined) return { value: wholeCharacters(value), end: undefined };
    if (escape === "u") {
      const hex = text.slice(i + 2, i + 6);
      if (!/^[0-9a-fA-F]*$/.test(hex)) return null;
      if (hex.length < 4) return { value: wholeCharacters(value), end: undefined };
      value += String.fromCharCode(parseInt(hex, 16));
      i += 6;
    } else {
      const k = ESCAPED.indexOf(escape);
      if (k < 0) return null;
      value += UNESCAPED[k];
      i += 2;
    }
    run = i;
  }
  return { value: wholeCharacters(value + text.slice(run)), end: undefined };
}

/**
 * The view of a JSON text that may be cut anywhere, by the rules `parseToolInput`
 * documents: what is read so far and complete, strings as far as they got; null for
 * text that is not the beginning of a JSON text.
 */
export function readPartialJson(text: string): unknown {
  if (/^[ \t\n\r]*$/.test(text)) return {};
  const stack: Container[] = [];
  let key = ""; // the key of the value next read in the innermost object
  let root: unknown = null;
  // what may come next: a value, a key, the `:` after a key, `,` or the close, or nothing
  // (set by `put` and `close` too: the cast keeps TypeScript from narrowing it)
  let expect = "value" as "value" | "key" | "colon" | "more" | "end";
  let justOpened = false; // the close may come instead of the first value or key
  const put = (value: unknown) => {
    const top = stack[stack.length - 1];
    if (top === undefined) root = value;
    else if (Array.isArray(top)) top.push(value);
    // defined, not assigned: a key `__proto__` is a property, as in JSON.parse
    else Object.defineProperty(top, key, { value, writable: true, enumerable: true, configurable: true });
    expect = stack.length > 0 ? "more" : "end";
  };
  const close = () => {
    stack.pop();
    expect = stack.length > 0 ? "more" : "end";
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (isSpace(c)) {
      i++;
      continue;
    }
    const top = stack[stack.length - 1];
    const mayClose = justOpened;
    justOpened = false;
    if (expect === "more") {
      if (c === ",") expect = Array.isArray(top) ? "value" : "key";
      else if (c === (Array.isArray(top) ? "]" : "}")) close();
      else return null;
      i++;
    } else if (expect === "colon") {
      if (c !== ":") return null;
      expect = "value";
      i++;
    } else if (expect === "key") {
      if (mayClose && c === "}") {
        close();
        i++;
        continue;
      }
      if (c !== '"') return null;
      const read = readString(text, i);
      if (read === null) return null;
      if (read.end === undefined) return root;
      key = read.value;
      expect = "colon";
      i = read.end;
    } else if (expect === "end") {
      return null;
    } else if (mayClose && c === "]") {
      close();
      i++;
    } else if (c === '"') {
      const read = readString(text, i);
      if (read === null) return null;
      put(read.value);
      if (read.end === undefined) return root;
      i = read.end;
    } else if (c === "{" || c === "[") {
      const container: Container = c === "{" ? {} : [];
      put(container);
      stack.push(container);
      expect = c === "{" ? "key" : "value";
      justOpened = true;
      i++;
    } else if (c === "-" || (c >= "0" && c <= "9")) {
      let end = i + 1;
      while (end < text.length && NUMBER_CHARS.test(text[end]!)) end++;
      const number = text.slice(i, end);
      if (end === text.length) {
        // the next character may still extend it: shown only as the whole text
        if (stack.length === 0 && NUMBER.test(number)) return Number(number);
        return NUMBER.test(number) || NUMBER.test(number + "0") ? root : null;
      }
      if (!NUMBER.test(number)) return null;
      put(Number(number));
      i = end;
    } else {
      const rest = text.slice(i, i + 5);
      const literal = LITERALS.find(([word]) => rest.startsWith(word) || word.startsWith(rest));
      if (literal === undefined) return null;
      const [word, value] = literal;
      if (!rest.startsWith(word)) return root; // cut short: the text ends inside the word
      put(value);
      i += word.length;
    }
  }
  return root;
}
