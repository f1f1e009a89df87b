//! The checks of a conformance case, shared by the native, browser and node suites (no
//! file access, so it runs inside wasm too).

use agentscope_message::{AgentEvent, Msg, MsgError, MsgOptions, assistant_msg};
use serde_json::{Value, json};

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
        initial => Msg::from_value(&initial.clone()).expect("initial msg is valid"),
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

/// Runs every case; returns one line per failure.
pub fn failures<'a>(cases: impl IntoIterator<Item = (&'a str, Value)>) -> Vec<String> {
    cases
        .into_iter()
        .filter_map(|(name, case)| check_case(name, &case).err())
        .collect()
}

pub fn check_case(name: &str, case: &Value) -> Result<(), String> {
    if case.get("expected_error").is_some() {
        return check_error_case(name, case);
    }
    let mut msg = initial_msg(case);
    for event in events(case) {
        msg.append_event(&event)
            .map_err(|e| format!("{name}: unexpected error {e}"))?;
    }
    let paths = volatile_paths(case);
    let (mut actual, mut expected) = (serde_json::to_value(&msg).expect("JSON"), case["expected"].clone());
    null_paths(&mut actual, &paths);
    null_paths(&mut expected, &paths);
    if let Some(diff) = json_diff(&actual, &expected, name) {
        return Err(diff);
    }
    check_queries(name, &msg, &case["queries"])?;
    if let Some(text) = case.get("revalidation_error").and_then(Value::as_str) {
        let err = Msg::from_value(&case["expected"].clone()).err();
        let want = text.strip_prefix("Value error, ").unwrap_or(text);
        match err {
            Some(e @ MsgError::RoleViolation(_)) if e.to_string() == want => {}
            other => return Err(format!("{name}: revalidation gave {other:?}, want {want:?}")),
        }
    }
    Ok(())
}

fn types(key: &str) -> Option<Vec<&str>> {
    match key {
        "null" => None,
        "[]" => Some(vec![]),
        k => Some(k.split(',').collect()),
    }
}

fn check_queries(name: &str, msg: &Msg, q: &Value) -> Result<(), String> {
    let fail =
        |what: &str, got: &dyn std::fmt::Debug, want: &Value| Err(format!("{name}: {what} = {got:?}, want {want}"));
    let text = msg.get_text_content("\n");
    if json!(text) != q["get_text_content"] {
        return fail("get_text_content()", &text, &q["get_text_content"]);
    }
    let sep = &q["get_text_content_sep"];
    let text = msg.get_text_content(sep["separator"].as_str().unwrap_or_default());
    if json!(text) != sep["result"] {
        return fail("get_text_content(sep)", &text, &sep["result"]);
    }
    for (key, want) in q["has_content_blocks"].as_object().ok_or("has_content_blocks")? {
        let t = types(key);
        let got = msg.has_content_blocks(t.as_deref());
        if json!(got) != *want {
            return fail(&format!("has_content_blocks({key})"), &got, want);
        }
    }
    for (key, want) in q["get_content_blocks_ids"]
        .as_object()
        .ok_or("get_content_blocks_ids")?
    {
        let t = types(key);
        let got: Vec<&str> = msg.get_content_blocks(t.as_deref()).iter().map(|b| b.id()).collect();
        if json!(got) != *want {
            return fail(&format!("get_content_blocks({key}) ids"), &got, want);
        }
    }
    for (key, want) in q["get_content_blocks_count"]
        .as_object()
        .ok_or("get_content_blocks_count")?
    {
        let t = types(key);
        let got = msg.get_content_blocks(t.as_deref()).len();
        if json!(got) != *want {
            return fail(&format!("get_content_blocks({key}) count"), &got, want);
        }
    }
    Ok(())
}

fn check_error_case(name: &str, case: &Value) -> Result<(), String> {
    let want_code = our_code(case["expected_error"].as_str().ok_or("expected_error")?);
    let err = match case["kind"].as_str() {
        Some("construct") => Msg::from_value(&case["initial"].clone()).err(),
        Some("event") => AgentEvent::from_value(&case["events"][0]).err(),
        Some("reduce") => {
            let mut msg = initial_msg(case);
            let mut events = events(case);
            let last = events.pop().ok_or("no events")?;
            for event in &events {
                msg.append_event(event)
                    .map_err(|e| format!("{name}: early error {e}"))?;
            }
            let before = msg.to_json();
            let err = msg.append_event(&last).err();
            if msg.to_json() != before {
                return Err(format!("{name}: a rejected event changed the message"));
            }
            err
        }
        other => return Err(format!("{name}: unknown kind {other:?}")),
    };
    let err = err.ok_or_else(|| format!("{name}: no error, want {want_code}"))?;
    if err.code() != want_code {
        return Err(format!("{name}: code {} ({err}), want {want_code}", err.code()));
    }
    if let Some(text) = case.get("expected_error_message").and_then(Value::as_str)
        && err.to_string() != text
    {
        return Err(format!("{name}: message {err:?}, want {text:?}"));
    }
    // where the reference's own message is the whole story, it must match too
    let reference = case["reference_message"].as_str().unwrap_or_default();
    let exact = ["invalid_base64", "invalid_url", "invalid_role", "invalid_content"];
    if exact.contains(&want_code) && case["kind"] != "construct" && err.to_string() != reference {
        return Err(format!(
            "{name}: message {:?}, reference says {reference:?}",
            err.to_string()
        ));
    }
    Ok(())
}
