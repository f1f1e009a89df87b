//! The hand-worked `Session` cases of `tests/fixtures/session/cases.json`, and the
//! chunking property over every recording, compiled in so that the wasm suites run them
//! too (no files there).

use agentscope_message::{Session, SessionOptions};
use serde_json::Value;

pub const CASES: &str = include_str!("../fixtures/session/cases.json");

macro_rules! recordings {
    ($($name:literal),* $(,)?) => {
        /// (name, JSON Lines text, SSE text) of every recording.
        pub const RECORDINGS: &[(&str, &str, &str)] = &[$((
            $name,
            include_str!(concat!("../../examples/recordings/", $name, "/events.jsonl")),
            include_str!(concat!("../../examples/recordings/", $name, "/events.sse")),
        )),*];
    };
}

recordings![
    "a_plain_chat_zh_emoji",
    "b_thinking_text",
    "c_react_3_tools_2_iters",
    "d_parallel_tool_calls",
    "e_tool_errors",
    "f_tool_image",
    "g1_confirm_approve",
    "g2_confirm_deny",
    "h_external_execution",
    "i1_interrupt_during_model_stream",
    "i2_interrupt_during_tool",
    "i3_interrupt_while_parked",
    "j_long_session_30_iters",
    "k_max_iters",
    "l_two_replies_same_session",
];

/// `expected` is contained in `actual`: objects on the keys given, arrays element-wise
/// with the same length, anything else equal.
pub fn subset(actual: &Value, expected: &Value, at: &str) -> Option<String> {
    match (actual, expected) {
        (Value::Object(a), Value::Object(e)) => e.iter().find_map(|(k, v)| match a.get(k) {
            Some(av) => subset(av, v, &format!("{at}.{k}")),
            None => Some(format!("{at}.{k}: missing")),
        }),
        (Value::Array(a), Value::Array(e)) if a.len() == e.len() => a
            .iter()
            .zip(e)
            .enumerate()
            .find_map(|(i, (av, ev))| subset(av, ev, &format!("{at}[{i}]"))),
        _ if actual == expected => None,
        _ => Some(format!("{at}: got {actual}, want {expected}")),
    }
}

/// Feeds `stream` in chunks of `chunk` bytes (0: whole) and reports what came out, as
/// the fixture's `expected` shape.
pub fn run(options: &Value, stream: &[u8], chunk: usize) -> Value {
    let options: SessionOptions = serde_json::from_value(options.clone()).expect("options");
    let mut session = Session::new(options);
    let size = if chunk == 0 { stream.len().max(1) } else { chunk };
    let mut error = Value::Null;
    let fed = stream
        .chunks(size)
        .try_for_each(|c| session.feed(c).map(|_| ()))
        .and_then(|()| session.end().map(|_| ()));
    if let Err(e) = fed {
        error = serde_json::json!({"code": e.code(), "index": e.index, "event_id": e.event_id});
    }
    serde_json::json!({
        "error": error,
        "messages": session.messages().map(|m| serde_json::to_value(m).expect("JSON")).collect::<Vec<_>>(),
        "diagnostics": serde_json::to_value(session.diagnostics()).expect("diagnostics"),
    })
}

/// Runs every case whole, byte by byte and in 7-byte chunks; one line per failure.
pub fn failures() -> Vec<String> {
    let fixture: Value = serde_json::from_str(CASES).expect("cases.json");
    let cases = fixture["cases"].as_array().expect("cases");
    assert!(cases.len() >= 18, "the session cases are there");
    let mut failures = Vec::new();
    for case in cases {
        let name = case["name"].as_str().unwrap_or("?");
        let stream = case["stream"].as_str().expect("stream").as_bytes();
        for chunk in [0, 1, 7] {
            let got = run(&case["options"], stream, chunk);
            let mut want = case["expected"].clone();
            if want.get("error").is_none() {
                want["error"] = Value::Null;
            }
            failures.extend(subset(&got, &want, &format!("{name} (chunks of {chunk})")));
        }
    }
    failures
}

/// A tiny deterministic generator (xorshift) for chunk boundaries in the wasm suites.
pub struct Cuts(u64);

impl Cuts {
    pub fn new(seed: u64) -> Cuts {
        Cuts(seed | 1)
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % (n as u64).max(1)) as usize
    }
}

/// Every recording (JSON Lines and SSE, with LF, CRLF and bare CR line ends) fed in
/// random chunks gives the messages of the whole file; `rounds` random splits each.
pub fn chunking_failures(rounds: usize, seed: u64) -> Vec<String> {
    agentscope_message::set_id_factory(Some(std::sync::Arc::new(|| "id".to_owned())));
    agentscope_message::set_timestamp_factory(Some(std::sync::Arc::new(|| "T".to_owned())));
    let mut cuts = Cuts::new(seed);
    let mut failures = Vec::new();
    let whole = |bytes: &[u8]| -> Vec<String> {
        let mut session = Session::new(SessionOptions::default());
        session.feed(bytes).expect("feeds");
        session.end().expect("ends");
        session.messages().map(|m| m.to_json()).collect()
    };
    for (name, jsonl, sse) in RECORDINGS {
        for (kind, text) in [("jsonl", *jsonl), ("sse", *sse)] {
            let want = whole(text.as_bytes());
            for round in 0..rounds {
                let text = match round % 3 {
                    0 => text.to_owned(),
                    1 => text.replace('\n', "\r\n"),
                    _ => text.replace('\n', "\r"),
                };
                let bytes = text.as_bytes();
                let mut session = Session::new(SessionOptions::default());
                let mut from = 0;
                while from < bytes.len() {
                    let to = (from + 1 + cuts.below(4096)).min(bytes.len());
                    session.feed(&bytes[from..to]).expect("feeds");
                    from = to;
                }
                session.end().expect("ends");
                let got: Vec<String> = session.messages().map(|m| m.to_json()).collect();
                if got != want {
                    failures.push(format!("{name}/{kind} round {round}: differs from the whole file"));
                }
            }
        }
    }
    agentscope_message::set_id_factory(None);
    agentscope_message::set_timestamp_factory(None);
    failures
}
