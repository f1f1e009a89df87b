//! The 15 real AgentScope streams of `examples/recordings/` (JSON Lines and SSE) replay
//! to the `final_msg.json` the reference rebuilt, through the library and the CLI.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::path::Path;
#[cfg(feature = "cli")]
use std::process::Command;

use agentscope_message::{Session, SessionOptions};
use common::*;
use serde_json::Value;

/// The reference's result: a list of messages (one per reply) and whether the file held
/// a list.
fn expected(dir: &Path) -> (Vec<Value>, bool) {
    match read_json(&dir.join("final_msg.json")) {
        Value::Array(msgs) => (msgs, true),
        msg => (vec![msg], false),
    }
}

fn compare(dir: &Path, file: &str, mut actual: Vec<Value>, want: &[Value]) -> Option<String> {
    if actual.len() != want.len() {
        return Some(format!(
            "{}/{file}: {} messages, want {}",
            dir.display(),
            actual.len(),
            want.len()
        ));
    }
    for (a, w) in actual.iter_mut().zip(want) {
        let mut w = w.clone();
        null_recording_volatiles(a);
        null_recording_volatiles(&mut w);
        if let Some(diff) = json_diff(a, &w, &format!("{}/{file}", dir.display())) {
            return Some(diff);
        }
    }
    None
}

#[test]
fn every_recording_replays_to_the_reference_message() {
    let dirs = recordings();
    assert_eq!(dirs.len(), 15);
    let mut failures = Vec::new();
    for dir in &dirs {
        let (want, _) = expected(dir);
        for file in ["events.jsonl", "events.sse"] {
            let bytes = std::fs::read(dir.join(file)).expect("recording");
            let mut session = Session::new(SessionOptions::default());
            let count = session.feed(&bytes).expect("replays") + session.end().expect("ends");
            assert!(count > 0, "{file} has events");
            assert_eq!(session.diagnostics(), [], "{file}: nothing skipped");
            let actual = session
                .messages()
                .map(|m| serde_json::to_value(m).expect("JSON"))
                .collect();
            failures.extend(compare(dir, file, actual, &want));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[cfg(feature = "cli")]
#[test]
fn every_recording_replays_through_the_cli() {
    let mut failures = Vec::new();
    for dir in recordings() {
        let (want, is_list) = expected(&dir);
        for file in ["events.jsonl", "events.sse"] {
            let mut cmd = Command::new(env!("CARGO_BIN_EXE_agentscope-message"));
            cmd.arg("replay");
            if is_list {
                cmd.arg("--all");
            }
            let out = cmd.arg(dir.join(file)).output().expect("cli runs");
            assert!(
                out.status.success(),
                "{}/{file}: {}",
                dir.display(),
                String::from_utf8_lossy(&out.stderr)
            );
            let printed: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
            let actual = if is_list {
                printed.as_array().expect("array").clone()
            } else {
                vec![printed]
            };
            failures.extend(compare(&dir, file, actual, &want));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[cfg(feature = "cli")]
#[test]
fn without_all_the_cli_prints_the_first_reply_only() {
    let dir = common::root().join("examples/recordings/l_two_replies_same_session");
    let (want, _) = expected(&dir);
    let out = Command::new(env!("CARGO_BIN_EXE_agentscope-message"))
        .arg("replay")
        .arg(dir.join("events.sse"))
        .output()
        .expect("cli runs");
    assert!(out.status.success());
    let printed: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!(compare(&dir, "events.sse", vec![printed], &want[..1]).is_none());
}
