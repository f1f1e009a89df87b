//! The crate's own free-form JSON values (`agentscope_message::json`) and serde's
//! `Deserialize` of the models: key order and digits kept as Python's `json` keeps them,
//! floats written as the reference writes them, and the same validation as `from_json`.
//! Expected texts are worked out by hand from Python's `json.loads` + pydantic's
//! `model_dump_json` (an infinity is written as `null`).

use agentscope_message::json::{self, Map, Number, Value};
use agentscope_message::{AgentEvent, Msg};
use serde::Deserialize;

#[test]
fn objects_keep_input_order_and_a_repeated_key_keeps_its_first_place() {
    let value = json::from_str(r#"{"b": 1, "a": {"z": true, "y": null}, "b": 2}"#).expect("JSON");
    assert_eq!(value.to_string(), r#"{"b":2,"a":{"z":true,"y":null}}"#);
    let keys: Vec<&str> = value.as_object().expect("object").keys().map(String::as_str).collect();
    assert_eq!(keys, ["b", "a"]);
}

#[test]
fn integers_keep_every_digit_and_floats_are_written_as_python_writes_them() {
    let value = json::from_str(
        r#"[123456789012345678901234567890, -0, 18446744073709551616, 1.5e-7, 100000.0, 1E2, 1e400, -1e400, 0.1]"#,
    )
    .expect("JSON");
    assert_eq!(
        value.to_string(),
        "[123456789012345678901234567890,0,18446744073709551616,1.5e-07,100000.0,100.0,null,null,0.1]"
    );
    assert_eq!(
        value[0].as_number().map(Number::as_str),
        Some("123456789012345678901234567890")
    );
    assert!(value[0].as_number().is_some_and(Number::is_integer));
    assert!(!value[5].as_number().is_some_and(Number::is_integer));
    assert_eq!(value[5].as_f64(), Some(100.0));
    assert_eq!(value[1].as_i64(), Some(0));
    assert_eq!(value[2].as_u64(), None);
    assert_eq!(value[99], Value::Null);
}

#[test]
fn values_are_built_from_rust_and_from_serde_json() {
    let mut map = Map::new();
    map.insert("n".into(), Value::from(3));
    map.insert("f".into(), Value::from(2.5));
    map.insert("inf".into(), Value::from(f64::INFINITY));
    map.insert("s".into(), Value::from("x"));
    map.insert("l".into(), Value::from(vec![Value::from(true), Value::Null]));
    assert_eq!(
        Value::from(map).to_string(),
        r#"{"n":3,"f":2.5,"inf":null,"s":"x","l":[true,null]}"#
    );
    let from_serde = Value::from(serde_json::json!({"k": [1, 0.5, "v"]}));
    assert_eq!(from_serde.to_string(), r#"{"k":[1,0.5,"v"]}"#);
    assert_eq!(
        serde_json::Value::from(&from_serde),
        serde_json::json!({"k": [1, 0.5, "v"]})
    );
}

#[test]
fn not_json_is_refused() {
    for text in ["", "{", "[1,]", "01", "nul", "{\"a\" 1}", "1 2"] {
        assert!(json::from_str(text).is_err(), "{text:?} was read");
    }
}

const MSG: &str = r#"{"name":"Friday","content":[{"type":"text","text":"hi","id":"t1","created_at":"T","finished_at":null}],"role":"assistant","id":"m1","metadata":{"z":1.5e-7,"a":123456789012345678901234567890},"created_at":"T","usage":null,"finished_at":null,"finished_reason":null,"structured_output":{"b":{"y":1,"x":2}},"error":null}"#;

#[test]
fn a_message_keeps_its_metadata_order_and_digits_through_every_route() {
    let msg = Msg::from_json(MSG).expect("valid");
    let want = MSG.replace("1.5e-7", "1.5e-07");
    assert_eq!(msg.to_json(), want);
    assert_eq!(serde_json::to_string(&msg).expect("JSON"), want);
    assert_eq!(serde_json::to_string(&msg.to_value()).expect("JSON"), want);
    assert_eq!(msg.to_value().to_string(), want);
    assert_eq!(
        msg.metadata["a"].as_number().map(Number::as_str),
        Some("123456789012345678901234567890")
    );
}

#[test]
fn msg_and_agent_event_deserialise_with_from_json_s_validation() {
    #[derive(Deserialize)]
    struct Row {
        id: u32,
        msg: Msg,
        events: Vec<AgentEvent>,
    }
    let row = format!(
        r#"{{"id": 7, "msg": {MSG}, "events": [{{"type": "TEXT_BLOCK_DELTA", "reply_id": "m1", "block_id": "t1", "delta": "!"}}]}}"#
    );
    let row: Row = serde_json::from_str(&row).expect("row");
    assert_eq!(row.id, 7);
    let mut msg = row.msg;
    msg.append_event(&row.events[0]).expect("applies");
    assert_eq!(msg.get_text_content("\n").as_deref(), Some("hi!"));

    // from a serde_json::Value too (with the application's serde_json: this test crate's
    // has no arbitrary_precision, so the 30-digit integer was already a float there),
    // and from a reader
    let value: serde_json::Value = serde_json::from_str(MSG).expect("JSON");
    let from_value: Msg = serde_json::from_value(value).expect("from_value");
    let want = MSG
        .replace("1.5e-7", "1.5e-07")
        .replace("123456789012345678901234567890", "1.2345678901234568e+29");
    assert_eq!(from_value.to_json(), want);
    let from_reader: Msg = serde_json::from_reader(MSG.as_bytes()).expect("from_reader");
    assert_eq!(from_reader.id, "m1");

    // the same refusals, with their codes
    let user_with_a_call =
        r#"{"name":"u","role":"user","content":[{"type":"tool_call","id":"c","name":"f","input":"{}"}]}"#;
    let code = Msg::from_json(user_with_a_call).expect_err("refused").code();
    assert_eq!(code, "role_violation");
    let e = serde_json::from_str::<Msg>(user_with_a_call)
        .expect_err("refused")
        .to_string();
    assert!(e.starts_with("role_violation: "), "{e}");
    let e = serde_json::from_str::<Msg>(r#"{"name":"u","role":"robot","content":[]}"#).expect_err("refused");
    assert!(e.to_string().starts_with("invalid_role: "), "{e}");
    let e = serde_json::from_str::<AgentEvent>(r#"{"type":"TEXT_BLOCK_DELTA","reply_id":"r"}"#).expect_err("refused");
    assert!(e.to_string().starts_with("invalid_event: "), "{e}");
    let e = serde_json::from_str::<AgentEvent>(r#"{"type":"NOT_AN_EVENT"}"#).expect_err("refused");
    assert!(e.to_string().starts_with("invalid_event: "), "{e}");
}

/// Nesting is bounded as serde_json bounds it (128 objects and lists), on every route, and
/// a deeper value is an error, never a deep recursion (100,000 levels here, which would
/// overflow any thread's stack if each level recursed).
#[test]
fn nesting_past_128_levels_is_an_error_on_every_route() {
    let nested = |n: usize| format!("{}1{}", "[".repeat(n), "]".repeat(n));
    assert!(json::from_str(&nested(128)).is_ok());
    let e = json::from_str(&nested(129)).expect_err("too deep");
    assert!(e.to_string().contains("recursion limit exceeded"), "{e}");
    assert!(json::from_str(&nested(100_000)).is_err());

    let msg =
        |metadata: &str| format!(r#"{{"name":"F","role":"assistant","content":[],"metadata":{{"a":{metadata}}}}}"#);
    let deep = Msg::from_json(&msg(&nested(128))).expect("128 levels");
    assert_eq!(
        deep.to_value()["metadata"]["a"],
        json::from_str(&nested(128)).expect("JSON")
    );
    for n in [129, 100_000] {
        let e = Msg::from_json(&msg(&nested(n))).expect_err("too deep");
        assert_eq!(e.code(), "invalid_msg", "{e}");
        let e = serde_json::from_str::<Msg>(&msg(&nested(n))).expect_err("too deep");
        assert!(e.to_string().starts_with("invalid_msg: "), "{e}");
    }

    // a session refuses the frame (or skips it, with skip_invalid) and goes on
    let frame = format!(
        "data: {{\"type\":\"REPLY_START\",\"session_id\":\"s\",\"reply_id\":\"r\",\"name\":\"F\",\"metadata\":{{\"a\":{}}}}}\n\n",
        nested(100_000)
    );
    let ok = "data: {\"type\":\"REPLY_START\",\"session_id\":\"s\",\"reply_id\":\"r\",\"name\":\"F\"}\n\n";
    let mut session = agentscope_message::Session::default();
    let e = session.feed(format!("{frame}{ok}").as_bytes()).expect_err("refused");
    assert_eq!((e.code(), e.index), ("invalid_event", 1));
    assert_eq!(session.feed(&[]).expect("the next frame"), 1);
    assert_eq!(session.len(), 1);
}

/// Text that is no JSON at all is `invalid_json` (Python's `json.loads` raises), also
/// when it starts like a list or a number; JSON that is not an object is `invalid_event`.
#[test]
fn text_that_is_not_json_is_invalid_json_and_json_that_is_not_an_object_invalid_event() {
    for text in ["[1", "4x", "[1] x", "null x", "\"s\" x", "{\"type\":5} x", "{"] {
        let code = AgentEvent::from_json(text).expect_err("refused").code();
        assert_eq!(code, "invalid_json", "{text}");
    }
    for text in ["[1]", "4", "null", "\"s\"", "{\"type\":5}"] {
        let code = AgentEvent::from_json(text).expect_err("refused").code();
        assert_eq!(code, "invalid_event", "{text}");
    }
}

/// A message's text that is no JSON at all is `invalid_json` too; `to_value` of a message
/// whose metadata a program nested past the reading bound is still the message.
#[test]
fn msg_errors_and_to_value_past_the_reading_bound() {
    for text in ["[1", "4x", "{"] {
        assert_eq!(
            Msg::from_json(text).expect_err("refused").code(),
            "invalid_json",
            "{text}"
        );
    }
    for text in ["[1]", "4", "null"] {
        assert_eq!(
            Msg::from_json(text).expect_err("refused").code(),
            "invalid_msg",
            "{text}"
        );
    }
    let mut msg = Msg::from_json(r#"{"name":"F","role":"assistant","content":[]}"#).expect("a message");
    let mut deep = Value::from(1);
    for _ in 0..300 {
        deep = Value::Array(vec![deep]);
    }
    msg.metadata.insert("k".into(), deep.clone());
    assert_eq!(msg.to_value()["metadata"]["k"], deep);
    assert_eq!(msg.to_value().to_string(), msg.to_json());
}
