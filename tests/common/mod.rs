//! Helpers shared by the integration tests: fixture loading and wire-JSON comparison.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};

use agentscope_message::{AgentEvent, Msg, MsgOptions, assistant_msg};
use serde_json::Value;

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every conformance case, as (file stem, parsed JSON), sorted by name.
pub fn conformance_cases() -> Vec<(String, Value)> {
    let dir = root().join("tests/fixtures/conformance");
    let mut cases: Vec<(String, Value)> = fs::read_dir(&dir)
        .expect("fixture folder")
        .map(|entry| entry.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| {
            let name = p.file_stem().expect("stem").to_string_lossy().into_owned();
            let text = fs::read_to_string(&p).expect("fixture readable");
            (name, serde_json::from_str(&text).expect("fixture is JSON"))
        })
        .collect();
    cases.sort_by(|a, b| a.0.cmp(&b.0));
    cases
}

/// Every recording folder, sorted.
pub fn recordings() -> Vec<PathBuf> {
    let dir = root().join("examples/recordings");
    let mut dirs: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("recordings folder")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// The error code this port reports for a fixture's `expected_error`. The reference's
/// `reducer_exception` (AttributeError, a bug) is a typed `base64_after_url` here.
pub fn our_code(expected_error: &str) -> &str {
    match expected_error {
        "reducer_exception" => "base64_after_url",
        other => other,
    }
}

/// The message a case starts from: its `initial`, or one opened from the first
/// `REPLY_START` as the reference service does.
pub fn initial_msg(case: &Value) -> Msg {
    match &case["initial"] {
        Value::Null => {
            let start = &case["events"][0];
            assert_eq!(
                start["type"], "REPLY_START",
                "a case without initial starts with REPLY_START"
            );
            let options = MsgOptions {
                id: Some(start["reply_id"].as_str().expect("reply_id").to_owned()),
                ..MsgOptions::default()
            };
            assistant_msg(start["name"].as_str().expect("name"), vec![], options).expect("assistant msg")
        }
        initial => Msg::from_value(initial.clone()).expect("initial msg is valid"),
    }
}

pub fn events(case: &Value) -> Vec<AgentEvent> {
    case["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| AgentEvent::from_value(e).expect("event parses"))
        .collect()
}

/// Sets every JSON pointer in `paths` that exists in `value` to null.
pub fn null_paths(value: &mut Value, paths: &[String]) {
    for p in paths {
        if let Some(v) = value.pointer_mut(p) {
            *v = Value::Null;
        }
    }
}

pub fn volatile_paths(case: &Value) -> Vec<String> {
    case["volatile_paths"]
        .as_array()
        .map(|a| a.iter().map(|p| p.as_str().expect("pointer").to_owned()).collect())
        .unwrap_or_default()
}

/// Where `actual` and `expected` differ in values **or** key order (compared as
/// serialised text), or `None` when they are the same.
pub fn json_diff(actual: &Value, expected: &Value, what: &str) -> Option<String> {
    let (a, e) = (
        serde_json::to_string_pretty(actual).expect("json"),
        serde_json::to_string_pretty(expected).expect("json"),
    );
    if a == e {
        return None;
    }
    let line = a.lines().zip(e.lines()).position(|(x, y)| x != y).unwrap_or(0);
    let show = |s: &str| {
        s.lines()
            .skip(line.saturating_sub(3))
            .take(8)
            .collect::<Vec<_>>()
            .join("\n")
    };
    Some(format!(
        "{what}: differs at line {line}\n--- actual\n{}\n--- expected\n{}",
        show(&a),
        show(&e)
    ))
}

/// Asserts equal values **and** equal key order.
pub fn assert_same_json(actual: &Value, expected: &Value, what: &str) {
    if let Some(diff) = json_diff(actual, expected, what) {
        panic!("{diff}");
    }
}

/// Recordings: nulls what the reducer makes up itself (recordings README): block
/// `created_at`s (also inside tool-result outputs), the message's `created_at`, hint
/// `finished_at`, ids of text blocks inside tool-result outputs.
pub fn null_recording_volatiles(msg: &mut Value) {
    msg["created_at"] = Value::Null;
    for block in msg["content"].as_array_mut().expect("content") {
        block["created_at"] = Value::Null;
        if block["type"] == "hint" {
            block["finished_at"] = Value::Null;
        }
        if let Some(items) = block.get_mut("output").and_then(Value::as_array_mut) {
            for item in items {
                item["created_at"] = Value::Null;
                if item["type"] == "text" {
                    item["id"] = Value::Null;
                }
            }
        }
    }
}

pub fn read_json(path: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(path).expect("readable")).expect("JSON")
}
