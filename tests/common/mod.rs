//! Helpers shared by the integration tests: fixture loading and wire-JSON comparison.
#![allow(dead_code)]

pub mod check;
pub mod embedded;
pub mod session_cases;

#[allow(unused_imports)]
pub use check::*;

use std::fs;
#[cfg(all(not(target_arch = "wasm32"), feature = "cli"))]
use std::io::Write;
use std::path::{Path, PathBuf};
#[cfg(all(not(target_arch = "wasm32"), feature = "cli"))]
use std::process::{Command, Output, Stdio};

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

/// Runs the `agentscope-message` CLI with `args`, writing `stdin` to it (built with the
/// `cli` feature: `cargo test --features cli`).
#[cfg(all(not(target_arch = "wasm32"), feature = "cli"))]
pub fn cli(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_agentscope-message"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cli starts");
    let mut pipe = child.stdin.take().expect("stdin");
    if let Some(bytes) = stdin {
        pipe.write_all(bytes).expect("write stdin");
    }
    drop(pipe);
    child.wait_with_output().expect("cli ends")
}
