//! The caps on what events may add (`Limits`, `SessionOptions`): each refusal is a
//! `limit_exceeded` that leaves the message (and session) exactly as it was, checked
//! before anything is copied in; 0 is no cap.
#![cfg(not(target_arch = "wasm32"))]

use agentscope_message::{AgentEvent, Limits, Msg, MsgError, MsgOptions, Session, SessionOptions, assistant_msg};

fn msg(limits: Limits) -> Msg {
    let options = MsgOptions {
        id: Some("r".into()),
        ..MsgOptions::default()
    };
    let mut m = assistant_msg("a", vec![], options).expect("valid");
    m.set_limits(limits);
    m
}

fn event(json: &str) -> AgentEvent {
    AgentEvent::from_json(json).expect("an event")
}

fn start(id: &str) -> AgentEvent {
    event(&format!(
        r#"{{"id":"e","created_at":"T","type":"TEXT_BLOCK_START","reply_id":"r","block_id":"{id}"}}"#
    ))
}

fn delta(id: &str, text: &str) -> AgentEvent {
    event(&format!(
        r#"{{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"{id}","delta":"{text}"}}"#
    ))
}

/// Applies `e`; on an error, checks that nothing changed and gives its code.
fn apply(m: &mut Msg, e: &AgentEvent) -> Result<(), &'static str> {
    let (before, taken) = (m.to_json(), m.taken_bytes());
    m.append_event(e).map(|_| ()).map_err(|error: MsgError| {
        assert_eq!(m.to_json(), before, "a refused event changes nothing");
        assert_eq!(m.taken_bytes(), taken);
        error.code()
    })
}

/// The wire JSON length of the start events used here (what a start takes in).
fn start_len() -> usize {
    start("a").to_json().len()
}

#[test]
fn a_delta_past_max_delta_bytes_is_refused() {
    let mut m = msg(Limits {
        max_delta_bytes: 4,
        ..Limits::default()
    });
    apply(&mut m, &start("a")).unwrap();
    apply(&mut m, &delta("a", "abcd")).unwrap();
    assert_eq!(apply(&mut m, &delta("a", "abcde")), Err("limit_exceeded"));
    // a non-ASCII delta counts its UTF-8 bytes: "é" is 2
    assert_eq!(apply(&mut m, &delta("a", "ééé")), Err("limit_exceeded"));
    apply(&mut m, &delta("a", "éé")).unwrap();
    assert_eq!(m.get_text_content("").as_deref(), Some("abcdéé"));
    // and data chunks too
    let data = |d: &str| {
        event(&format!(
            r#"{{"type":"DATA_BLOCK_DELTA","reply_id":"r","block_id":"d","media_type":"image/png","data":"{d}"}}"#
        ))
    };
    apply(
        &mut m,
        &event(r#"{"type":"DATA_BLOCK_START","reply_id":"r","block_id":"d","media_type":"image/png"}"#),
    )
    .unwrap();
    assert_eq!(apply(&mut m, &data("aGVsbG8=")), Err("limit_exceeded"));
    apply(&mut m, &data("aGVs")).unwrap();
}

#[test]
fn a_block_past_max_block_bytes_is_refused_and_the_others_still_grow() {
    let s = start_len();
    let mut m = msg(Limits {
        max_block_bytes: s + 10,
        ..Limits::default()
    });
    apply(&mut m, &start("a")).unwrap();
    apply(&mut m, &start("b")).unwrap();
    apply(&mut m, &delta("a", "0123456789")).unwrap();
    assert_eq!(apply(&mut m, &delta("a", "x")), Err("limit_exceeded"));
    apply(&mut m, &delta("b", "0123456789")).unwrap();
    assert_eq!(m.get_text_content("|").as_deref(), Some("0123456789|0123456789"));
    // a start past the cap by itself
    let mut small = msg(Limits {
        max_block_bytes: s - 1,
        ..Limits::default()
    });
    assert_eq!(apply(&mut small, &start("a")), Err("limit_exceeded"));
    assert!(small.content().is_empty());
}

#[test]
fn a_message_past_max_message_bytes_or_max_blocks_is_refused() {
    let s = start_len();
    // the message itself counts its wire JSON when made
    let base = msg(Limits::default()).to_json().len();
    let mut m = msg(Limits {
        max_message_bytes: base + 2 * s + 5,
        ..Limits::default()
    });
    assert_eq!(m.taken_bytes(), base);
    apply(&mut m, &start("a")).unwrap();
    apply(&mut m, &start("b")).unwrap();
    apply(&mut m, &delta("a", "012")).unwrap();
    apply(&mut m, &delta("b", "34")).unwrap();
    assert_eq!(m.taken_bytes(), base + 2 * s + 5);
    assert_eq!(apply(&mut m, &delta("b", "5")), Err("limit_exceeded"));
    // a skipped event (a block never started) takes nothing in
    let mut m = msg(Limits {
        max_blocks: 2,
        ..Limits::default()
    });
    apply(&mut m, &start("a")).unwrap();
    apply(&mut m, &delta("zz", "lost")).unwrap();
    assert_eq!(m.taken_bytes(), base + s);
    apply(&mut m, &start("b")).unwrap();
    assert_eq!(apply(&mut m, &start("c")), Err("limit_exceeded"));
    assert_eq!(m.content().len(), 2);
    // 0 is no cap
    m.set_limits(Limits {
        max_blocks: 0,
        ..Limits::default()
    });
    apply(&mut m, &start("c")).unwrap();
}

#[test]
fn a_message_counts_the_content_it_was_made_with() {
    let json = r#"{"name":"a","role":"assistant","id":"r","content":[{"type":"text","text":"0123456789","id":"t","created_at":"T"}]}"#;
    let mut m = Msg::from_json(json).expect("valid");
    let block = r#"{"type":"text","text":"0123456789","id":"t","created_at":"T","finished_at":null}"#;
    assert_eq!(m.taken_bytes(), m.to_json().len());
    assert!(m.to_json().contains(block));
    m.set_limits(Limits {
        max_block_bytes: block.len() + 3,
        ..Limits::default()
    });
    apply(&mut m, &delta("t", "abc")).unwrap();
    assert_eq!(apply(&mut m, &delta("t", "d")), Err("limit_exceeded"));
    // content_mut recounts
    m.content_mut().clear();
    assert_eq!(m.taken_bytes(), m.to_json().len());
}

#[test]
fn a_session_passes_its_caps_to_each_message_and_caps_their_sum() {
    // the starts here name replies "r1", "r2": one byte longer than start_len(); each
    // message counts its own wire JSON when REPLY_START opens it
    let s = start_len() + 1;
    let options = MsgOptions {
        id: Some("r1".into()),
        ..MsgOptions::default()
    };
    let mb = assistant_msg("a", vec![], options).expect("valid").to_json().len();
    let stream = |reply: &str, text: &str| {
        [
            format!(r#"{{"type":"REPLY_START","session_id":"s","reply_id":"{reply}","name":"a"}}"#),
            format!(r#"{{"id":"e","created_at":"T","type":"TEXT_BLOCK_START","reply_id":"{reply}","block_id":"a"}}"#),
            format!(r#"{{"type":"TEXT_BLOCK_DELTA","reply_id":"{reply}","block_id":"a","delta":"{text}"}}"#),
        ]
        .map(|e| e + "\n")
        .concat()
    };
    let mut session = Session::new(SessionOptions {
        max_delta_bytes: 8,
        max_session_bytes: 2 * mb + 2 * s + 14,
        ..SessionOptions::default()
    });
    session
        .feed(stream("r1", "01234567").as_bytes())
        .expect("within the caps");
    let err = session
        .feed(stream("r2", "012345678").as_bytes())
        .expect_err("a delta of 9");
    assert_eq!((err.code(), err.index), ("limit_exceeded", 6));
    assert!(err.to_string().contains("max_delta_bytes"), "{err}");
    // r2 holds its message and its start: 6 bytes of the session are left, too few for
    // a third message, which its REPLY_START does not open
    assert_eq!(session.taken_bytes(), 2 * mb + 2 * s + 8);
    let err = session
        .feed(stream("r3", "0").as_bytes())
        .expect_err("the session is full");
    assert_eq!(err.index, 7);
    assert!(err.to_string().contains("max_session_bytes"), "{err}");
    assert_eq!(session.len(), 2);
    assert_eq!(session.taken_bytes(), 2 * mb + 2 * s + 8);
    // the options are kept by a checkpoint
    let restored = Session::restore(&session.checkpoint()).expect("restores");
    assert_eq!(restored.options().max_session_bytes, 2 * mb + 2 * s + 14);
}

#[test]
fn each_result_of_an_external_execution_is_a_block_under_the_cap() {
    let result = |id: &str, output: &str| {
        format!(r#"{{"type":"tool_result","id":"{id}","name":"f","output":"{output}","state":"success"}}"#)
    };
    let event = |results: &[String]| {
        AgentEvent::from_json(&format!(
            r#"{{"type":"EXTERNAL_EXECUTION_RESULT","reply_id":"r","execution_results":[{}]}}"#,
            results.join(",")
        ))
        .expect("an event")
    };
    let mut m = msg(Limits {
        max_block_bytes: 300,
        ..Limits::default()
    });
    // two results of ~250 bytes each: 500 for the event, each block under 300
    let (a, b) = (result("a", &"x".repeat(150)), result("b", &"y".repeat(150)));
    apply(&mut m, &event(&[a, b])).unwrap();
    assert_eq!(m.content().len(), 2);
    // one of them past the cap: nothing is added
    let (c, d) = (result("c", "z"), result("d", &"w".repeat(300)));
    assert_eq!(apply(&mut m, &event(&[c, d])), Err("limit_exceeded"));
    assert_eq!(m.content().len(), 2);
}

#[test]
fn what_no_block_holds_counts_too_reply_starts_unstarted_calls_rules_and_metadata() {
    let start = |reply: &str, name: &str| {
        format!(r#"{{"type":"REPLY_START","session_id":"s","reply_id":"{reply}","name":"{name}"}}"#)
    };
    // a REPLY_START opens a message of its own wire JSON: a huge name is refused
    let mut session = Session::new(SessionOptions {
        max_message_bytes: 1000,
        ..SessionOptions::default()
    });
    let err = session.apply_json(&start("r", &"n".repeat(1000))).expect_err("too big");
    assert!(err.to_string().contains("max_message_bytes"), "{err}");
    assert_eq!(session.len(), 0);
    // asks about calls never started are held by the session, and counted
    let ask = |i: usize| {
        format!(
            r#"{{"type":"REQUIRE_USER_CONFIRM","reply_id":"r","tool_calls":[{{"type":"tool_call","id":"c{i}","name":"f","input":"{}"}}]}}"#,
            "i".repeat(1000)
        )
    };
    let mut session = Session::new(SessionOptions {
        max_session_bytes: 5000,
        ..SessionOptions::default()
    });
    session.apply_json(&start("r", "a")).expect("a reply");
    let mut refused = None;
    for i in 0..10 {
        if let Err(e) = session.apply_json(&ask(i)) {
            refused = Some((i, e.code()));
            break;
        }
    }
    let (i, code) = refused.expect("the session fills up");
    assert_eq!(code, "limit_exceeded");
    assert_eq!(session.unstarted_calls().len(), i);
    assert!(session.taken_bytes() <= 5000, "{}", session.taken_bytes());
    // suggested rules and a tool result's metadata count in their block
    let mut m = Msg::from_json(r#"{"name":"a","role":"assistant","id":"r","content":[]}"#).expect("valid");
    m.set_limits(Limits {
        max_block_bytes: 1000,
        ..Limits::default()
    });
    apply(
        &mut m,
        &event(r#"{"type":"TOOL_CALL_START","reply_id":"r","tool_call_id":"c","tool_call_name":"f"}"#),
    )
    .unwrap();
    let rules = format!(
        r#"{{"type":"REQUIRE_USER_CONFIRM","reply_id":"r","tool_calls":[{{"type":"tool_call","id":"c","name":"f","input":"","suggested_rules":[{{"tool_name":"{}","rule_content":null,"behavior":"allow","source":"user"}}]}}]}}"#,
        "t".repeat(1000)
    );
    assert_eq!(apply(&mut m, &event(&rules)), Err("limit_exceeded"));
    apply(
        &mut m,
        &event(r#"{"type":"TOOL_RESULT_START","reply_id":"r","tool_call_id":"c","tool_call_name":"f"}"#),
    )
    .unwrap();
    let end = format!(
        r#"{{"type":"TOOL_RESULT_END","reply_id":"r","tool_call_id":"c","state":"success","metadata":{{"big":"{}"}}}}"#,
        "x".repeat(1000)
    );
    assert_eq!(apply(&mut m, &event(&end)), Err("limit_exceeded"));
}

#[test]
fn a_checkpoint_with_a_last_event_id_past_4096_bytes_is_refused() {
    let checkpoint: serde_json::Value = serde_json::from_str(&Session::default().checkpoint()).expect("json");
    let with = |id: String| {
        let mut c = checkpoint.clone();
        c["last_event_id"] = serde_json::Value::String(id);
        Session::restore(&c.to_string())
    };
    assert!(with("7".repeat(4096)).is_ok());
    assert_eq!(
        with("7".repeat(4097)).map(|_| ()).map_err(|e| e.code()),
        Err("invalid_checkpoint")
    );
}
