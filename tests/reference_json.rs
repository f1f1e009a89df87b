//! Differential test against the reference's own output: every case of
//! `tests/fixtures/reference-json/cases.json` (numbers, lax conversions, unions without a
//! `type`, nulls, duplicate keys, URLs…, written by running agentscope 2.0.11) goes
//! through this port, and the cases where it differs must be exactly the ones listed in
//! `known-differences.json` with their reason. A case that starts to differ fails the
//! test; so does a listed case that now agrees (take it off the list).
//!
//! After an intended change: `UPDATE_KNOWN=1 cargo test --test reference_json` rewrites
//! the list (new entries get the reason "unclassified": classify them by hand).
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;

use agentscope_message::{AgentEvent, Msg, Session, SessionOptions, set_id_factory, set_timestamp_factory};
use serde_json::Value;

fn dir() -> std::path::PathBuf {
    common::root().join("tests/fixtures/reference-json")
}

/// This port's answer: the wire JSON it writes back, or its error code.
fn ours(kind: &str, input: &str) -> Result<String, String> {
    let code = |e: agentscope_message::MsgError| e.code().to_owned();
    match kind {
        "event" => AgentEvent::from_json(input).map(|e| e.to_json()).map_err(code),
        "msg" => Msg::from_json(input).map(|m| m.to_json()).map_err(code),
        _ => {
            let mut session = Session::new(SessionOptions::default());
            session
                .feed(input.as_bytes())
                .and_then(|_| session.end())
                .map_err(|e| e.code().to_owned())?;
            session
                .message(0)
                .map(|m| m.to_json())
                .ok_or_else(|| "no_reply".to_owned())
        }
    }
}

/// `None` when this port agrees with the reference, else what differs.
fn differs(case: &Value) -> Option<String> {
    let input = case["input"].as_str().expect("input");
    let kind = case["kind"].as_str().expect("kind");
    let got = match std::panic::catch_unwind(|| ours(kind, input)) {
        Ok(got) => got,
        Err(_) => return Some("panics".to_owned()),
    };
    match (case["accepted"].as_bool().expect("accepted"), got) {
        (true, Ok(out)) if out == case["output"].as_str().unwrap_or_default() => None,
        (true, Ok(out)) => Some(format!("writes {out}, the reference {}", case["output"])),
        (true, Err(code)) => Some(format!("rejects ({code}), the reference accepts")),
        (false, Err(code)) if code != "invalid_json" || case["error"] == "JSONDecodeError" => None,
        (false, Err(code)) => Some(format!("{code} for valid JSON (the reference: {})", case["error"])),
        (false, Ok(_)) => Some(format!("accepts, the reference rejects ({})", case["error"])),
    }
}

#[test]
fn this_port_differs_from_the_reference_only_where_listed() {
    set_id_factory(Some(Arc::new(|| "GEN-ID".to_owned())));
    set_timestamp_factory(Some(Arc::new(|| "GEN-TS".to_owned())));
    let fixture = common::read_json(&dir().join("cases.json"));
    let cases = fixture["cases"].as_array().expect("cases");
    let known_path = dir().join("known-differences.json");
    let known: BTreeMap<String, String> = std::fs::read_to_string(&known_path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    let mut found = BTreeMap::new();
    let mut details = BTreeMap::new();
    for case in cases {
        let name = format!(
            "{}: {}",
            case["group"].as_str().unwrap_or("?"),
            case["case"].as_str().unwrap_or("?")
        );
        if let Some(why) = differs(case) {
            let reason = known.get(&name).cloned().unwrap_or_else(|| "unclassified".to_owned());
            details.insert(name.clone(), why);
            found.insert(name, reason);
        }
    }
    let mut by_reason: BTreeMap<&str, usize> = BTreeMap::new();
    for reason in found.values() {
        *by_reason.entry(reason).or_default() += 1;
    }
    println!("{} of {} reference cases differ:", found.len(), cases.len());
    for (reason, n) in &by_reason {
        println!("  {n:5}  {reason}");
    }
    // SHOW=<text>: print what differs in the cases whose name contains it
    if let Ok(filter) = std::env::var("SHOW") {
        for (name, why) in details.iter().filter(|(n, _)| n.contains(&filter)) {
            println!("{name}\n    {why}");
        }
    }
    if std::env::var("UPDATE_KNOWN").as_deref() == Ok("1") {
        let text = serde_json::to_string_pretty(&found).expect("json");
        std::fs::write(&known_path, text + "\n").expect("writes the list");
        return;
    }
    let new: Vec<String> = found
        .keys()
        .filter(|k| !known.contains_key(*k))
        .map(|k| format!("{k}: {}", details[k]))
        .collect();
    let fixed: Vec<&String> = known.keys().filter(|k| !found.contains_key(*k)).collect();
    assert!(
        new.is_empty(),
        "new differences from the reference:\n{}",
        new.join("\n")
    );
    assert!(
        fixed.is_empty(),
        "these now agree with the reference; take them off known-differences.json:\n{fixed:?}"
    );
    assert!(
        !found.values().any(|r| r == "unclassified"),
        "classify every known difference"
    );
}
