//! Replays a recorded AgentScope stream with the published crate's `Session` and checks
//! it rebuilds the message the reference did (`final_msg.json`), but for what the reducer
//! makes up itself (examples/recordings/README.md).
//!
//! release-smoke EVENTS.sse FINAL_MSG.json
use agentscope_message::{Session, SessionOptions};
use serde_json::Value;

fn canonical(mut msg: Value) -> Value {
    msg["created_at"] = Value::Null;
    for block in msg["content"].as_array_mut().into_iter().flatten() {
        block["created_at"] = Value::Null;
        if block["type"] == "hint" {
            block["finished_at"] = Value::Null;
        }
        for item in block.get_mut("output").and_then(Value::as_array_mut).into_iter().flatten() {
            item["created_at"] = Value::Null;
            if item["type"] == "text" {
                item["id"] = Value::Null;
            }
        }
    }
    msg
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, events, final_msg] = args.as_slice() else {
        return Err("usage: release-smoke EVENTS.sse FINAL_MSG.json".into());
    };
    let mut session = Session::new(SessionOptions::default());
    session.feed(&std::fs::read(events)?)?;
    session.end()?;
    let msg = session.messages().next().ok_or("no message")?;
    let got = canonical(serde_json::from_str(&msg.to_json())?);
    let want = canonical(serde_json::from_str(&std::fs::read_to_string(final_msg)?)?);
    if got != want {
        return Err(format!("the replayed message differs from {final_msg}:\n{got}\n{want}").into());
    }
    Ok(())
}
