// Deliberately broken variants of the chat for `scripts/simulate --self-test`: each one
// change in the built package (pkg/dist), which the explorer must catch (a violation
// within its seeds). A simulator that cannot fail proves nothing. A mutant whose code is
// not found once in its file is reported stale (and counts as not caught).

export interface Mutant {
  name: string;
  /** The file of pkg/dist changed. */
  file: string;
  /** The code replaced (found exactly once) and what replaces it. */
  from: string;
  to: string;
  /** The seeds searched for a violation, [from, to). */
  seeds: [number, number];
}

export const MUTANTS: Mutant[] = [
  {
    name: "resend after a timeout (a POST given up for time is sent again)",
    file: "posting.js",
    from: `const mayArrive = e.cause === "timeout";`,
    to: `const mayArrive = false;`,
    seeds: [0, 2000],
  },
  {
    name: "resend without checking (a POST lost after the service applied it is sent again)",
    file: "posting.js",
    from: `                if (done)
                    return;
                if (mayArrive) {`,
    to: `                if (done && mayArrive)
                    return;
                if (mayArrive) {`,
    seeds: [0, 2000],
  },
  {
    name: "forget a REPLY_END met during a reconnect (no onFinish for a reply the store shows ended)",
    file: "chat-history.js",
    from: `if (!first && !s.hidden.has(m.id))`,
    to: `if (false)`,
    seeds: [0, 2000],
  },
  {
    name: "give up a repair reload (past the attempts, silently)",
    file: "chat-core.js",
    from: `            tired = true;
        }`,
    to: `            tired = true;
        }
        if (failures > this.retry.attempts) { this.error = null; return null; }`,
    // (a search from seed 0 finds it at 2575: a delta lost, then 18 failed reloads; below
    // 2000 only a failed run's error it also dropped showed it, and a failed run's error now
    // comes back when another error goes)
    seeds: [2000, 4000],
  },
  {
    name: "onFinish before the chat's state says the reply is over (a send from it is refused busy)",
    file: "chat-feed.js",
    from: `    const submit = s.submit;
    if (submit !== null) {
        if (submit.kind === "send" && submit.accepted !== false && s.tailRepliesAfter(submit.replies))`,
    to: `    s.finish(finished.splice(0));
    const submit = s.submit;
    if (submit !== null) {
        if (submit.kind === "send" && submit.accepted !== false && s.tailRepliesAfter(submit.replies))`,
    seeds: [0, 2000],
  },
  {
    name: "no deduplication (a replay after a reconnect applies events again)",
    file: "chat.js",
    from: `new Session({ dedup: true, keepEvents: true })`,
    to: `new Session({ dedup: false, keepEvents: true })`,
    seeds: [0, 2000],
  },
  {
    name: "onEvent for replayed duplicates",
    file: "chat-feed.js",
    from: `if (outcome === "duplicate" || typeof event.id !== "string")`,
    to: `if (typeof event.id !== "string")`,
    seeds: [0, 2000],
  },
  {
    name: "no run watchdog (a reply whose REPLY_END never came stays streaming)",
    file: "chat.js",
    from: `        chat.#watchdog.start();`,
    to: ``,
    seeds: [0, 2000],
  },
  {
    name: "a reply joined mid-way is never replaced by the stored one",
    file: "chat-history.js",
    from: `else if (s.partial.has(m.id) || (!page.isRunning && !s.reconciled.has(ours))) {`,
    to: `else if (!s.partial.has(m.id) && !page.isRunning && !s.reconciled.has(ours)) {`,
    seeds: [0, 2000],
  },
  {
    name: "onFinish for the stored replies a chat opens on (a reload tells every old reply again)",
    file: "chat-history.js",
    from: `if (!first && !s.hidden.has(m.id))`,
    to: `if (!s.hidden.has(m.id))`,
    seeds: [0, 2000],
  },
  {
    name: "the run watchdog left running after close (a timer per closed chat, for good)",
    file: "chat.js",
    from: `        this.#watchdog.close();`,
    to: ``,
    seeds: [0, 2000],
  },
  {
    name: "durations on the wall clock (a clock stepped back holds the listeners' throttle and the watchdog for the jump)",
    file: "timing.js",
    from: `export const now = () => performance.now();`,
    to: `export const now = () => Date.now();`,
    seeds: [0, 2000],
  },
  {
    name: "reconnect() connects without reloading the stored page (a reply damaged while the service was lost stays so)",
    file: "chat.js",
    // (reconnect() and a POST that finds the stream lost both restart it in #restart)
    from: `        if (this.#steer === null)
            void runStream(this.#stream, true);
        else
            this.#steer.restart(() => void this.#reloader.refresh(false));`,
    to: `        if (this.#steer === null)
            void runStream(this.#stream);
        else
            this.#steer.steer();`,
    seeds: [0, 4000],
  },
  // the blind spots attack 36 found (X1 to X6, each missed before the invariants and actions of that work), and its fixes
  {
    name: "onEvent's info.continued always false (a parked reply going on looks new)",
    file: "chat-feed.js",
    from: `continued = s.started.has(event.reply_id) || s.historyIds.has(event.reply_id);`,
    to: `continued = false;`,
    seeds: [0, 2000],
  },
  {
    name: "a reload's failure error never cleared (an error at rest with the service back)",
    file: "chat-core.js",
    from: `        if (this.reloadError !== undefined && this.error === this.reloadError) {
            this.clearError();`,
    to: `        if (false) {
            this.clearError();`,
    seeds: [0, 2000],
  },
  {
    name: "a failed answer stays answered (its call can never be answered again)",
    file: "chat-core.js",
    from: `            this.answered.delete(id);
            this.answerPosting.delete(id);`,
    to: `            this.answerPosting.delete(id);`,
    seeds: [0, 2000],
  },
  {
    name: "a message the service never stored is dropped silently (no run_lost)",
    file: "chat-history.js",
    from: `if (dropped > 0 && !s.fatal) {`,
    to: `if (false) {`,
    seeds: [0, 2000],
  },
  {
    name: "a send keeps a failed run's state (status error after a reply that ended well)",
    file: "chat-core.js",
    from: `        this.runError = false;
        const wasLost = this.runLost;`,
    to: `        const wasLost = this.runLost;`,
    seeds: [0, 2000],
  },
  {
    name: "CUSTOM state_updated ignored (state not mirrored)",
    file: "app-state.js",
    from: `this.state = Object.freeze(v);`,
    to: `void 0;`,
    seeds: [0, 2000],
  },
  {
    name: "a send after the session was found deleted is posted",
    file: "chat-core.js",
    from: `    beginSend(msgs, status) {
        this.usable();`,
    to: `    beginSend(msgs, status) {`,
    seeds: [0, 2000],
  },
  {
    name: "a POST the service took leaves a lost stream lost (its reply never shows)",
    file: "chat.js",
    from: `if (!this.#core.closed && this.#do(() => this.#core.reconnect()))`,
    to: `if (false)`,
    seeds: [0, 2000],
  },
  {
    name: "an answer taken and never applied stays answered (the call waits for good)",
    file: "chat-state.js",
    from: `        if (this.answered.size === 0)
            return;`,
    to: `        return;`,
    seeds: [0, 2000],
  },
  {
    name: "a stream held at rest (idleStreamMs never closes it)",
    file: "chat-core.js",
    from: `return this.submit !== null || this.stopping || this.serviceRunning || this.runLost;`,
    to: `return true;`,
    seeds: [0, 2000],
  },
  {
    name: "a reply streaming is no reason to hold the stream (closed at rest mid-reply)",
    file: "chat-core.js",
    from: `if (status === "submitted" || status === "streaming" || status === "stopping")
            return true;`,
    to: `if (status === "submitted")
            return true;`,
    seeds: [0, 2000],
  },
];
