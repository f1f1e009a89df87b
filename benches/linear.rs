//! Linear cost of every event kind: each kind's workload at n and 2n events through a
//! `Session`, and the ratio of the times (linear ≈ 2; a quadratic path shows ≈ 4). Run
//! with `cargo bench --bench linear` (part of `npm run bench`); prints a table, asserts
//! nothing about time (issue 10: "a test that doubles the input of every event kind and
//! bounds the time ratio, in a benchmark, not a timed test").

use std::time::{Duration, Instant};

use agentscope_message::{EventType, Session, SessionOptions};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

const R: &str = r#""reply_id": "r""#;

fn ev(ty: &str, fields: &str) -> String {
    format!(r#"{{"id": "e", "created_at": "2026-01-01T00:00:00.000000", "metadata": {{}}, "type": "{ty}", {fields}}}"#)
}

fn call(id: &str) -> String {
    format!(r#"{{"type": "tool_call", "id": "{id}", "name": "f", "input": "{{}}"}}"#)
}

fn result(id: &str) -> String {
    format!(r#"{{"type": "tool_result", "id": "{id}", "name": "f", "output": "ok", "state": "success"}}"#)
}

/// `n` events of type `ty` asking for tool calls `c0`..`c{n-1}`, one each.
fn asks(ty: &str, n: usize) -> Vec<String> {
    (0..n)
        .map(|i| ev(ty, &format!(r#"{R}, "tool_calls": [{}]"#, call(&format!("c{i}")))))
        .collect()
}

/// The events of one kind's workload of size `n` (setup events first).
fn workload(kind: &str, n: usize) -> Vec<String> {
    let mut out = vec![ev("REPLY_START", &format!(r#""session_id": "s", {R}, "name": "a""#))];
    let chunk = STANDARD.encode(vec![7u8; 3 * 1024]);
    match kind {
        "TEXT_BLOCK_DELTA" | "THINKING_BLOCK_DELTA" => {
            let start = kind.replace("DELTA", "START");
            out.push(ev(&start, &format!(r#"{R}, "block_id": "b""#)));
            out.extend((0..n).map(|_| ev(kind, &format!(r#"{R}, "block_id": "b", "delta": "abcd""#))));
        }
        "TOOL_CALL_DELTA" => {
            out.push(ev(
                "TOOL_CALL_START",
                &format!(r#"{R}, "tool_call_id": "c", "tool_call_name": "f""#),
            ));
            out.extend((0..n).map(|_| ev(kind, &format!(r#"{R}, "tool_call_id": "c", "delta": "[1, ""#))));
        }
        "TOOL_RESULT_TEXT_DELTA" | "TOOL_RESULT_DATA_DELTA" => {
            out.push(ev(
                "TOOL_RESULT_START",
                &format!(r#"{R}, "tool_call_id": "c", "tool_call_name": "f""#),
            ));
            out.extend((0..n).map(|_| match kind {
                "TOOL_RESULT_TEXT_DELTA" => ev(kind, &format!(r#"{R}, "tool_call_id": "c", "delta": "abcd""#)),
                _ => ev(
                    kind,
                    &format!(
                        r#"{R}, "tool_call_id": "c", "block_id": "d", "media_type": "image/png", "data": "{chunk}""#
                    ),
                ),
            }));
        }
        "DATA_BLOCK_DELTA" => {
            out.push(ev(
                "DATA_BLOCK_START",
                &format!(r#"{R}, "block_id": "d", "media_type": "image/png""#),
            ));
            out.extend((0..n).map(|_| {
                ev(
                    kind,
                    &format!(r#"{R}, "block_id": "d", "media_type": "image/png", "data": "{chunk}""#),
                )
            }));
        }
        "TEXT_BLOCK_START" | "THINKING_BLOCK_START" | "DATA_BLOCK_START" | "HINT_BLOCK" => {
            let extra = match kind {
                "DATA_BLOCK_START" => r#", "media_type": "image/png""#,
                "HINT_BLOCK" => r#", "hint": "h""#,
                _ => "",
            };
            out.extend((0..n).map(|i| ev(kind, &format!(r#"{R}, "block_id": "b{i}"{extra}"#))));
        }
        "TEXT_BLOCK_END" | "THINKING_BLOCK_END" | "DATA_BLOCK_END" => {
            let start = kind.replace("END", "START");
            let extra = if kind == "DATA_BLOCK_END" {
                r#", "media_type": "image/png""#
            } else {
                ""
            };
            out.extend((0..n).map(|i| ev(&start, &format!(r#"{R}, "block_id": "b{i}"{extra}"#))));
            out.extend((0..n).map(|i| ev(kind, &format!(r#"{R}, "block_id": "b{i}""#))));
        }
        "TOOL_CALL_START" | "TOOL_RESULT_START" => {
            out.extend((0..n).map(|i| ev(kind, &format!(r#"{R}, "tool_call_id": "c{i}", "tool_call_name": "f""#))));
        }
        "TOOL_CALL_END" | "TOOL_RESULT_END" => {
            let start = kind.replace("END", "START");
            let extra = if kind == "TOOL_RESULT_END" {
                r#", "state": "success""#
            } else {
                ""
            };
            out.extend((0..n).map(|i| {
                ev(
                    &start,
                    &format!(r#"{R}, "tool_call_id": "c{i}", "tool_call_name": "f""#),
                )
            }));
            out.extend((0..n).map(|i| ev(kind, &format!(r#"{R}, "tool_call_id": "c{i}"{extra}"#))));
        }
        "REQUIRE_USER_CONFIRM" | "REQUIRE_EXTERNAL_EXECUTION" | "USER_CONFIRM_RESULT" | "EXTERNAL_EXECUTION_RESULT" => {
            out.extend((0..n).map(|i| {
                ev(
                    "TOOL_CALL_START",
                    &format!(r#"{R}, "tool_call_id": "c{i}", "tool_call_name": "f""#),
                )
            }));
            match kind {
                "REQUIRE_USER_CONFIRM" | "REQUIRE_EXTERNAL_EXECUTION" => out.extend(asks(kind, n)),
                "USER_CONFIRM_RESULT" => {
                    out.extend(asks("REQUIRE_USER_CONFIRM", n));
                    out.extend((0..n).map(|i| {
                        let answer = format!(
                            r#"{{"confirmed": true, "tool_call": {}, "rules": null}}"#,
                            call(&format!("c{i}"))
                        );
                        ev(kind, &format!(r#"{R}, "confirm_results": [{answer}]"#))
                    }));
                }
                _ => {
                    out.extend(asks("REQUIRE_EXTERNAL_EXECUTION", n));
                    let results = |i: usize| {
                        ev(
                            kind,
                            &format!(r#"{R}, "execution_results": [{}]"#, result(&format!("c{i}"))),
                        )
                    };
                    out.extend((0..n).map(results));
                }
            }
        }
        "MODEL_CALL_START" => out.extend((0..n).map(|_| ev(kind, &format!(r#"{R}, "model_name": "m""#)))),
        "MODEL_CALL_END" => {
            out.extend((0..n).map(|_| ev(kind, &format!(r#"{R}, "input_tokens": 3, "output_tokens": 4"#))))
        }
        "REPLY_START" => out.extend((0..n).map(|_| ev(kind, &format!(r#""session_id": "s", {R}, "name": "a""#)))),
        "REPLY_END" => out.extend((0..n).map(|_| ev(kind, &format!(r#""session_id": "s", {R}"#)))),
        "EXCEED_MAX_ITERS" => out.extend((0..n).map(|_| ev(kind, &format!(r#"{R}, "name": "a""#)))),
        "USER_INTERRUPT" => out.extend((0..n).map(|_| ev(kind, R))),
        "CUSTOM" => out.extend((0..n).map(|_| ev(kind, r#""name": "x", "value": {"k": 1}"#))),
        _ => unreachable!("{kind}"),
    }
    out
}

/// Seconds to apply `events` to a new session (best of three).
fn time(events: &[String]) -> f64 {
    let mut best = Duration::MAX;
    for _ in 0..3 {
        let mut session = Session::new(SessionOptions::default());
        let start = Instant::now();
        for e in events {
            session.apply_json(e).expect("applies");
        }
        best = best.min(start.elapsed());
    }
    best.as_secs_f64()
}

fn main() {
    println!("| event kind | n | time at n | time at 2n | 2n / n |");
    println!("|---|---|---|---|---|");
    for kind in EventType::ALL.map(EventType::as_str) {
        // 4 KiB base64 chunks: fewer events, the same megabytes as the text kinds
        let n = if kind.contains("DATA") && kind.contains("DELTA") {
            2_500
        } else {
            20_000
        };
        let (t1, t2) = (time(&workload(kind, n)), time(&workload(kind, 2 * n)));
        println!(
            "| {kind} | {n} | {:.1} ms | {:.1} ms | {:.2} |",
            t1 * 1e3,
            t2 * 1e3,
            t2 / t1
        );
    }
    // each event a new base64 item of one tool result (a new block_id): its merge target
    // is looked up in an index, not searched for in the output
    let new_ids = |n: usize| {
        let mut out = vec![ev("REPLY_START", &format!(r#""session_id": "s", {R}, "name": "a""#))];
        out.push(ev(
            "TOOL_RESULT_START",
            &format!(r#"{R}, "tool_call_id": "c", "tool_call_name": "f""#),
        ));
        out.extend((0..n).map(|i| {
            ev(
                "TOOL_RESULT_DATA_DELTA",
                &format!(r#"{R}, "tool_call_id": "c", "block_id": "d{i}", "media_type": "image/png", "data": "aGk=""#),
            )
        }));
        out
    };
    let n = 20_000;
    let (t1, t2) = (time(&new_ids(n)), time(&new_ids(2 * n)));
    println!(
        "| TOOL_RESULT_DATA_DELTA, a new block_id each | {n} | {:.1} ms | {:.1} ms | {:.2} |",
        t1 * 1e3,
        t2 * 1e3,
        t2 / t1
    );
}
