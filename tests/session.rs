//! `Session`: the hand-worked cases of `tests/fixtures/session/cases.json`, chunking of
//! every recording, checkpoints, outcomes, and the CLI on top of it.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use agentscope_message::{
    AgentEvent, BlockMatch, Framer, Matching, Msg, MsgOptions, Outcome, Session, SessionOptions, Skip, ToolCallMatch,
    ToolCallState, assistant_msg,
};
#[cfg(feature = "cli")]
use common::session_cases::subset;
use common::session_cases::{self, RECORDINGS};
use common::*;
use serde_json::{Value, json};

fn cases() -> Vec<Value> {
    let fixture: Value = serde_json::from_str(session_cases::CASES).expect("cases.json");
    fixture["cases"].as_array().expect("cases").clone()
}

fn case(name: &str) -> Value {
    cases().into_iter().find(|c| c["name"] == name).expect("case")
}

#[test]
fn every_session_case_passes_whole_and_in_chunks() {
    let failed = session_cases::failures();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn the_embedded_recordings_are_the_folder() {
    let names: Vec<String> = recordings()
        .iter()
        .map(|d| d.file_name().expect("name").to_string_lossy().into_owned())
        .collect();
    let embedded: Vec<&str> = RECORDINGS.iter().map(|r| r.0).collect();
    assert_eq!(names, embedded);
}

#[test]
fn random_chunking_of_every_recording_gives_the_same_messages() {
    let failed = session_cases::chunking_failures(9, 0x5eed);
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// Splits a recording into its events' JSON texts (JSON Lines).
fn lines(name: &str) -> Vec<&'static str> {
    let (_, jsonl, _) = RECORDINGS.iter().find(|r| r.0 == name).expect("recording");
    jsonl.lines().filter(|l| !l.trim().is_empty()).collect()
}

#[test]
fn a_checkpoint_then_a_replay_from_any_earlier_point_gives_the_same_messages() {
    let options = SessionOptions {
        dedup: true,
        ..SessionOptions::default()
    };
    for name in ["g1_confirm_approve", "l_two_replies_same_session", "f_tool_image"] {
        let events = lines(name);
        let mut whole = Session::new(options);
        for e in &events {
            whole.apply_json(e).expect("applies");
        }
        let stable = |session: &Session| -> Vec<Value> {
            session
                .messages()
                .map(|m| {
                    let mut v = serde_json::to_value(m).expect("JSON");
                    null_recording_volatiles(&mut v);
                    v
                })
                .collect()
        };
        let want = stable(&whole);
        let n = events.len();
        for cut in [0, 1, n / 3, n / 2, n - 1, n] {
            let mut first = Session::new(options);
            for e in &events[..cut] {
                first.apply_json(e).expect("applies");
            }
            let checkpoint = first.checkpoint();
            for from in [0, cut / 2, cut] {
                let mut resumed = Session::restore(&checkpoint).expect("restores");
                assert_eq!(resumed.options(), options);
                let mut body = String::new();
                for e in &events[from..] {
                    body.push_str(e);
                    body.push('\n');
                }
                resumed.feed(body.as_bytes()).expect("feeds");
                resumed.end().expect("ends");
                assert_eq!(
                    stable(&resumed),
                    want,
                    "{name}: checkpoint after {cut}, replay from {from}"
                );
                let duplicates = resumed.diagnostics().iter().filter(|d| d.code == "duplicate").count();
                assert_eq!(duplicates, cut - from, "{name}: the replayed events are the duplicates");
            }
        }
    }
}

#[test]
fn a_bad_checkpoint_is_a_typed_error() {
    for text in ["", "{}", "[]", r#"{"format":"other/1"}"#] {
        let err = Session::restore(text).expect_err("not a checkpoint");
        assert_eq!(err.code(), "invalid_checkpoint", "{text:?}");
    }
}

#[test]
fn a_session_restores_its_own_checkpoint_whatever_the_reducer_made() {
    // the reducer, as the reference's, does not check the role rules: an event may add a
    // tool call to a user message, and the checkpoint must still restore
    let mut session = Session::new(SessionOptions::default());
    let start = r#"{"type":"REPLY_START","session_id":"s","reply_id":"r","name":"A"}"#;
    session.apply_json(start).expect("applies");
    let checkpoint = session.checkpoint();
    let assistant = session.message(0).expect("a message").to_json();
    let user = assistant.replacen(r#""role":"assistant""#, r#""role":"user""#, 1);
    assert_ne!(user, assistant);
    let mut session = Session::restore(&checkpoint.replacen(&assistant, &user, 1)).expect("restores");
    let call = r#"{"type":"TOOL_CALL_START","reply_id":"r","tool_call_id":"c","tool_call_name":"search"}"#;
    assert_eq!(session.apply_json(call).expect("applies"), Outcome::Applied);
    let restored = Session::restore(&session.checkpoint()).expect("its own checkpoint restores");
    let json = restored.message(0).expect("a message").to_json();
    assert_eq!(json, session.message(0).expect("a message").to_json());
    assert!(json.contains(r#""role":"user""#) && json.contains(r#""type":"tool_call""#));
    // a stored message read on its own still follows the role rules
    assert_eq!(
        Msg::from_json(&json)
            .expect_err("a user message with a tool call")
            .code(),
        "role_violation"
    );
}

#[test]
fn a_checkpoint_with_the_largest_event_count_does_not_overflow() {
    let checkpoint = Session::new(SessionOptions::default()).checkpoint();
    let tampered = checkpoint.replacen(r#""events":0"#, &format!(r#""events":{}"#, usize::MAX), 1);
    assert_ne!(tampered, checkpoint);
    let mut session = Session::restore(&tampered).expect("restores");
    let start = r#"{"type":"REPLY_START","session_id":"s","reply_id":"r","name":"A"}"#;
    assert_eq!(session.apply_json(start).expect("applies"), Outcome::Applied);
    session.feed(b"{}\n").expect_err("not an event");
    assert_eq!(session.events(), usize::MAX);
}

#[test]
fn the_events_of_an_empty_reply_id_are_reported_not_dropped_silently() {
    // the reply's message gets a made-up id (`id or uuid`, as in the reference), which the
    // reply's events do not name: each is a `foreign_reply` diagnostic, or refused when strict
    let start = r#"{"type":"REPLY_START","session_id":"s","reply_id":"","name":"A"}"#;
    let open = r#"{"type":"TEXT_BLOCK_START","reply_id":"","block_id":"b"}"#;
    let mut session = Session::new(SessionOptions::default());
    assert_eq!(session.apply_json(start).expect("applies"), Outcome::Applied);
    let id = session.message(0).expect("a message").id.clone();
    assert!(!id.is_empty());
    assert_eq!(
        session.apply_json(open).expect("skipped"),
        Outcome::Skipped(Skip::ForeignReply)
    );
    let diagnostic = &session.diagnostics()[0];
    assert_eq!((diagnostic.index, diagnostic.code), (2, "foreign_reply"));
    assert_eq!(
        diagnostic.message,
        format!(r#"TEXT_BLOCK_START for reply "", whose message was given the id "{id}""#)
    );
    let mut strict = Session::new(SessionOptions {
        strict: true,
        ..SessionOptions::default()
    });
    strict.apply_json(start).expect("applies");
    let before = strict.message(0).expect("a message").to_json();
    assert_eq!(strict.apply_json(open).expect_err("refused").code(), "foreign_reply");
    assert_eq!(strict.message(0).expect("a message").to_json(), before);
}

#[test]
fn events_without_an_id_on_the_wire_are_never_deduplicated() {
    let mut session = Session::new(SessionOptions {
        dedup: true,
        ..SessionOptions::default()
    });
    let start = r#"{"type":"REPLY_START","session_id":"s","reply_id":"r","name":"A"}"#;
    let open = r#"{"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"b"}"#;
    let delta = r#"{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"b","delta":"ha"}"#;
    for e in [start, open, delta, delta] {
        assert_eq!(session.apply_json(e).expect("applies"), Outcome::Applied);
    }
    assert_eq!(
        session.get("r").and_then(|m| m.get_text_content("")).as_deref(),
        Some("haha")
    );
}

/// An empty assistant reply with this id.
fn reply(id: &str) -> agentscope_message::Msg {
    let options = MsgOptions {
        id: Some(id.into()),
        ..MsgOptions::default()
    };
    assistant_msg("A", vec![], options).expect("msg")
}

#[test]
fn append_event_reports_what_it_did() {
    let mut msg = reply("r");
    let apply = |msg: &mut agentscope_message::Msg, json: Value| {
        msg.append_event(&AgentEvent::from_value(&json).expect("event"))
            .expect("applies")
    };
    let e = |t: &str, extra: Value| {
        let mut v = json!({"type": t, "reply_id": "r", "session_id": "s"});
        v.as_object_mut()
            .expect("object")
            .extend(extra.as_object().cloned().unwrap_or_default());
        v
    };
    assert_eq!(
        apply(&mut msg, e("REPLY_START", json!({"name": "A"}))),
        Outcome::Skipped(Skip::IgnoredType)
    );
    assert_eq!(
        apply(&mut msg, e("MODEL_CALL_START", json!({"model_name": "m"}))),
        Outcome::Skipped(Skip::IgnoredType)
    );
    assert_eq!(
        apply(&mut msg, json!({"type": "CUSTOM", "name": "x"})),
        Outcome::Skipped(Skip::IgnoredType)
    );
    let mut other = e("TEXT_BLOCK_START", json!({"block_id": "b"}));
    other["reply_id"] = json!("elsewhere");
    assert_eq!(apply(&mut msg, other), Outcome::Skipped(Skip::ForeignReply));
    assert_eq!(
        apply(&mut msg, e("TEXT_BLOCK_DELTA", json!({"block_id": "b", "delta": "x"}))),
        Outcome::Skipped(Skip::UnknownBlock)
    );
    assert_eq!(
        apply(&mut msg, e("TEXT_BLOCK_START", json!({"block_id": "b"}))),
        Outcome::Applied
    );
    assert_eq!(
        apply(&mut msg, e("TEXT_BLOCK_DELTA", json!({"block_id": "b", "delta": "x"}))),
        Outcome::Applied
    );
    assert_eq!(
        apply(
            &mut msg,
            e(
                "REQUIRE_USER_CONFIRM",
                json!({"tool_calls": [{"type": "tool_call", "id": "nope", "name": "t", "input": ""}]})
            )
        ),
        Outcome::Skipped(Skip::UnknownBlock)
    );
    assert_eq!(msg.get_text_content("").as_deref(), Some("x"));
}

#[test]
fn tool_call_match_newest_on_a_message() {
    let mut msg = reply("r");
    for (json, want) in [
        (
            r#"{"type":"TOOL_CALL_START","reply_id":"r","tool_call_id":"t:0","tool_call_name":"f"}"#,
            vec![""],
        ),
        (
            r#"{"type":"TOOL_CALL_DELTA","reply_id":"r","tool_call_id":"t:0","delta":"1"}"#,
            vec!["1"],
        ),
        (
            r#"{"type":"TOOL_CALL_START","reply_id":"r","tool_call_id":"t:0","tool_call_name":"f"}"#,
            vec!["1", ""],
        ),
        (
            r#"{"type":"TOOL_CALL_DELTA","reply_id":"r","tool_call_id":"t:0","delta":"2"}"#,
            vec!["1", "2"],
        ),
    ] {
        let event = AgentEvent::from_json(json).expect("event");
        msg.append_event_with(&event, ToolCallMatch::Newest).expect("applies");
        let inputs: Vec<String> = serde_json::to_value(&msg).expect("JSON")["content"]
            .as_array()
            .expect("content")
            .iter()
            .map(|b| b["input"].as_str().unwrap_or_default().to_owned())
            .collect();
        assert_eq!(inputs, want);
    }
}

/// (text, ended) of each text block of a message.
type Texts = Vec<(&'static str, bool)>;

/// AgentScope-Java's text → tool call → text with the one block id `"text"`
/// (agentscope-java#1929): each event, with the texts after it with block_match first
/// (the reference) and newest.
fn reused_text_id() -> Vec<(&'static str, Texts, Texts)> {
    vec![
        (
            r#"{"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"text"}"#,
            vec![("", false)],
            vec![("", false)],
        ),
        (
            r#"{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"text","delta":"Let me search."}"#,
            vec![("Let me search.", false)],
            vec![("Let me search.", false)],
        ),
        (
            r#"{"type":"TEXT_BLOCK_END","reply_id":"r","block_id":"text"}"#,
            vec![("Let me search.", true)],
            vec![("Let me search.", true)],
        ),
        (
            r#"{"type":"TOOL_CALL_START","reply_id":"r","tool_call_id":"c","tool_call_name":"search"}"#,
            vec![("Let me search.", true)],
            vec![("Let me search.", true)],
        ),
        (
            r#"{"type":"TOOL_CALL_END","reply_id":"r","tool_call_id":"c"}"#,
            vec![("Let me search.", true)],
            vec![("Let me search.", true)],
        ),
        (
            r#"{"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"text"}"#,
            vec![("Let me search.", true), ("", false)],
            vec![("Let me search.", true), ("", false)],
        ),
        (
            r#"{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"text","delta":"Found it."}"#,
            vec![("Let me search.Found it.", true), ("", false)],
            vec![("Let me search.", true), ("Found it.", false)],
        ),
        (
            r#"{"type":"TEXT_BLOCK_END","reply_id":"r","block_id":"text"}"#,
            vec![("Let me search.Found it.", true), ("", false)],
            vec![("Let me search.", true), ("Found it.", true)],
        ),
    ]
}

/// (text, ended) of each text block.
fn texts(msg: &agentscope_message::Msg) -> Vec<(String, bool)> {
    msg.get_content_blocks(Some(&["text"]))
        .iter()
        .map(|b| match b {
            agentscope_message::ContentBlock::Text(t) => (t.text.clone(), t.finished_at.is_some()),
            _ => unreachable!("text blocks only"),
        })
        .collect()
}

#[test]
fn block_match_newest_on_a_message() {
    let own = |v: &[(&str, bool)]| -> Vec<(String, bool)> { v.iter().map(|&(t, e)| (t.to_owned(), e)).collect() };
    let (mut first, mut newest, mut both) = (reply("r"), reply("r"), reply("r"));
    for (json, want_first, want_newest) in reused_text_id() {
        let event = AgentEvent::from_json(json).expect("event");
        assert_eq!(first.append_event(&event).expect("applies"), Outcome::Applied);
        assert_eq!(
            newest.append_event_with(&event, BlockMatch::Newest).expect("applies"),
            Outcome::Applied
        );
        let matching = Matching {
            tool_calls: ToolCallMatch::Newest,
            blocks: BlockMatch::Newest,
        };
        both.append_event_with(&event, matching).expect("applies");
        assert_eq!(texts(&first), own(&want_first), "first, after {json}");
        assert_eq!(texts(&newest), own(&want_newest), "newest, after {json}");
        assert_eq!(texts(&both), own(&want_newest), "both newest, after {json}");
    }
    // ToolCallMatch alone leaves the blocks matched as the reference does
    let mut tool_calls = reply("r");
    for (json, ..) in reused_text_id() {
        let event = AgentEvent::from_json(json).expect("event");
        tool_calls
            .append_event_with(&event, ToolCallMatch::Newest)
            .expect("applies");
    }
    assert_eq!(texts(&tool_calls), texts(&first));
}

#[test]
fn block_match_is_kept_in_a_checkpoint_and_first_when_absent() {
    let options = SessionOptions {
        block_match: BlockMatch::Newest,
        ..SessionOptions::default()
    };
    let mut session = Session::new(options);
    session
        .apply_json(r#"{"type":"REPLY_START","session_id":"s","reply_id":"r","name":"A"}"#)
        .expect("applies");
    let events: Vec<&str> = reused_text_id().into_iter().map(|(e, ..)| e).collect();
    for e in &events[..3] {
        session.apply_json(e).expect("applies");
    }
    let checkpoint = session.checkpoint();
    assert!(checkpoint.contains(r#""block_match":"newest""#), "{checkpoint}");
    let mut restored = Session::restore(&checkpoint).expect("restores");
    assert_eq!(restored.options().block_match, BlockMatch::Newest);
    for e in &events[3..] {
        restored.apply_json(e).expect("applies");
    }
    let msg = restored.message(0).expect("the reply");
    assert_eq!(
        texts(msg),
        [("Let me search.".to_owned(), true), ("Found it.".to_owned(), true)]
    );
    assert!(restored.diagnostics().is_empty(), "{:?}", restored.diagnostics());
    // a checkpoint written before the option (no block_match) restores with first
    let old = checkpoint.replace(r#""block_match":"newest","#, "");
    assert!(!old.contains("block_match"));
    let restored = Session::restore(&old).expect("restores");
    assert_eq!(restored.options().block_match, BlockMatch::First);
    assert_eq!(restored.options().tool_call_match, ToolCallMatch::First);
}

/// CLI flags for a case's options.
#[cfg(feature = "cli")]
fn flags(options: &Value) -> Vec<&'static str> {
    let mut out = vec!["replay", "--all", "--diagnostics"];
    if options["strict"] == true {
        out.push("--strict");
    }
    if options["dedup"] == true {
        out.push("--dedup");
    }
    if options["tool_call_match"] == "newest" {
        out.extend(["--tool-call-match", "newest"]);
    }
    if options["block_match"] == "newest" {
        out.extend(["--block-match", "newest"]);
    }
    out.push("-");
    out
}

#[cfg(feature = "cli")]
#[test]
fn every_session_case_through_the_cli() {
    let mut failures = Vec::new();
    for case in cases() {
        let name = case["name"].as_str().expect("name");
        let expected = &case["expected"];
        let out = cli(
            &flags(&case["options"]),
            Some(case["stream"].as_str().expect("stream").as_bytes()),
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        let mut lines: Vec<&str> = stderr.lines().collect();
        match expected.get("error") {
            Some(error) => {
                let last = lines.pop().unwrap_or_default();
                let want = format!(
                    "error[{}] at event {}",
                    error["code"].as_str().expect("code"),
                    error["index"]
                );
                if out.status.code() != Some(1) || !last.starts_with(&want) {
                    failures.push(format!(
                        "{name}: exit {:?}, last line {last:?}, want {want:?}",
                        out.status.code()
                    ));
                }
            }
            None => {
                if !out.status.success() {
                    failures.push(format!("{name}: exit {:?}: {stderr}", out.status.code()));
                    continue;
                }
                let printed: Value = serde_json::from_slice(&out.stdout).expect("stdout JSON");
                failures.extend(subset(&printed, &expected["messages"], name));
            }
        }
        let diagnostics: Vec<Value> = lines
            .iter()
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect();
        failures.extend(subset(
            &Value::Array(diagnostics),
            &expected["diagnostics"],
            &format!("{name} diagnostics"),
        ));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[cfg(feature = "cli")]
#[test]
fn the_cli_reads_the_demo_servers_own_stream() {
    // what `curl -N` of web-demo's /api/stream prints: ids, a keep-alive comment,
    // `event: paused` and `event: end` frames around the recording's events
    let (_, _, sse) = RECORDINGS
        .iter()
        .find(|r| r.0 == "c_react_3_tools_2_iters")
        .expect("recording");
    let mut stream = String::from(": connected\n\nretry: 1000\n\n");
    let mut framer = Framer::new();
    framer.feed(sse.as_bytes());
    framer.end();
    let mut i = 0;
    while let Some(frame) = framer.next_frame() {
        stream.push_str(&format!("id: {i}\ndata: {}\n\n", frame.expect("a frame").data));
        if i == 3 {
            stream.push_str("event: ping\ndata: 1764480000\n\n");
        }
        i += 1;
    }
    stream.push_str("event: end\ndata: {}\n\n");
    let out = cli(&["replay", "-"], Some(stream.as_bytes()));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty());
    let printed: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let mut want = read_json(&root().join("examples/recordings/c_react_3_tools_2_iters/final_msg.json"));
    let mut got = printed;
    null_recording_volatiles(&mut got);
    null_recording_volatiles(&mut want);
    assert_eq!(got, want);
}

#[cfg(feature = "cli")]
#[test]
fn the_cli_escapes_control_characters_of_the_input_in_errors() {
    let out = cli(&["replay", "-"], Some(b"{\"type\":\"\x1b[31mRED\x07\"}\n"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(!stderr.contains('\x1b') && !stderr.contains('\x07'), "{stderr:?}");
    // line and paragraph separators and bidi overrides, echoed by a serde error message
    let start = r#"{"type":"REPLY_START","session_id":"s","reply_id":"r","name":"a","role":"x\u2028\u2029\u202ey"}"#;
    let out = cli(&["replay", "-"], Some(start.as_bytes()));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    for c in ['\u{2028}', '\u{2029}', '\u{202e}'] {
        assert!(!stderr.contains(c), "{c:?} in {stderr:?}");
    }
    assert!(stderr.contains("x\\u{2028}\\u{2029}\\u{202e}y"), "{stderr:?}");
}

#[test]
fn case_names_are_unique() {
    let names: std::collections::HashSet<String> = cases()
        .iter()
        .map(|c| c["name"].as_str().expect("name").to_owned())
        .collect();
    assert_eq!(names.len(), cases().len());
    let _ = case("after_end_strict");
}

#[test]
fn restart_stream_drops_the_unfinished_frame_of_a_broken_connection() {
    let start = r#"data: {"type":"REPLY_START","id":"e0","session_id":"s","reply_id":"r","name":"A"}"#;
    let open = r#"data: {"type":"TEXT_BLOCK_START","id":"e1","reply_id":"r","block_id":"b"}"#;
    let delta = r#"data: {"type":"TEXT_BLOCK_DELTA","id":"e2","reply_id":"r","block_id":"b","delta":"Hi"}"#;
    let mut session = Session::new(SessionOptions {
        dedup: true,
        ..SessionOptions::default()
    });
    // the first connection breaks in the middle of the delta's frame
    session
        .feed(format!("id: 1\n{start}\n\nid: 2\n{open}\n\nid: 3\n{}", &delta[..30]).as_bytes())
        .expect("feeds");
    assert_eq!(session.last_event_id(), Some("2"));
    session.restart_stream();
    // the new connection resumes after id 1 (an overlap of one event)
    session
        .feed(format!("id: 2\n{open}\n\nid: 3\n{delta}\n\n").as_bytes())
        .expect("feeds");
    session.end().expect("ends");
    let msg = session.get("r").expect("reply");
    assert_eq!(msg.get_text_content("").as_deref(), Some("Hi"));
    assert_eq!(msg.content().len(), 1);
    let codes: Vec<&str> = session.diagnostics().iter().map(|d| d.code).collect();
    assert_eq!(codes, ["duplicate"]);
}

#[test]
fn a_rejected_event_leaves_no_diagnostic_and_no_change() {
    let mut session = Session::new(SessionOptions::default());
    let stream = concat!(
        r#"{"type":"REPLY_START","id":"e0","session_id":"s","reply_id":"r","name":"A"}"#,
        "\n",
        r#"{"type":"DATA_BLOCK_START","id":"e1","reply_id":"r","block_id":"d","media_type":"image/png"}"#,
        "\n",
        r#"{"type":"REPLY_END","id":"e2","session_id":"s","reply_id":"r"}"#,
        "\n",
        r#"{"type":"DATA_BLOCK_DELTA","id":"e3","reply_id":"r","block_id":"d","media_type":"image/png","data":"a"}"#,
        "\n",
    );
    let err = session.feed(stream.as_bytes()).expect_err("bad base64");
    assert_eq!(
        (err.code(), err.index, err.event_id.as_deref()),
        ("invalid_base64", 4, Some("e3"))
    );
    let codes: Vec<&str> = session.diagnostics().iter().map(|d| d.code).collect();
    assert_eq!(
        codes,
        ["unclosed_blocks"],
        "the after_end warning of a rejected event is not kept (the REPLY_END's note is)"
    );
    let msg = session.get("r").expect("reply");
    assert_eq!(
        serde_json::to_value(msg).expect("JSON")["content"][0]["source"]["data"],
        ""
    );
}

#[test]
fn last_event_id_survives_frames_without_an_id() {
    let mut session = Session::new(SessionOptions::default());
    let start = r#"{"type":"REPLY_START","id":"e0","session_id":"s","reply_id":"r","name":"A"}"#;
    session
        .feed(format!("id: 2\ndata: {start}\n\n").as_bytes())
        .expect("feeds");
    session.restart_stream();
    let more = "event: ping\ndata: {}\n\ndata: {\"type\":\"STATUS\"}\n\ndata: {\"type\":\"CUSTOM\",\"name\":\"x\"}\n\n";
    session.feed(more.as_bytes()).expect("feeds");
    session.apply_json(r#"{"type":"STATUS"}"#).expect("skipped");
    assert_eq!(session.last_event_id(), Some("2"));
}

#[test]
fn last_event_id_follows_the_sse_standard_empty_id_resets_and_an_id_only_block_sets_it() {
    let mut session = Session::new(SessionOptions::default());
    let start = r#"{"type":"REPLY_START","id":"e0","session_id":"s","reply_id":"r","name":"A"}"#;
    session
        .feed(format!("id: 7\ndata: {start}\n\n").as_bytes())
        .expect("feeds");
    assert_eq!(session.last_event_id(), Some("7"));
    // a block with an id and no data dispatches no event but sets the last event id
    session.feed(b"id: 8\n\n").expect("feeds");
    assert_eq!(session.last_event_id(), Some("8"));
    // an empty id resets it (WHATWG: the last event ID buffer becomes empty)
    session.feed(b"id\n\n").expect("feeds");
    assert_eq!(session.last_event_id(), None);
    session.feed(b"id: 9\n\n").expect("feeds");
    // a reconnect keeps it for frames without an id, and a restored checkpoint too
    session.restart_stream();
    session.feed(b"data: {\"type\":\"STATUS\"}\n\n").expect("feeds");
    assert_eq!(session.last_event_id(), Some("9"));
    let mut restored = Session::restore(&session.checkpoint()).expect("restores");
    restored
        .feed(b": keep-alive\n\ndata: {\"type\":\"STATUS\"}\n\n")
        .expect("feeds");
    assert_eq!(restored.last_event_id(), Some("9"));
}

#[test]
fn bytes_after_end_are_an_error_until_the_stream_restarts() {
    let mut session = Session::new(SessionOptions::default());
    let start = "{\"type\":\"REPLY_START\",\"session_id\":\"s\",\"reply_id\":\"r\",\"name\":\"A\"}\n";
    session.feed(start.as_bytes()).expect("feeds");
    session.end().expect("ends");
    let err = session.feed(start.as_bytes()).expect_err("ended");
    assert_eq!(err.code(), "invalid_stream");
    assert_eq!(session.feed(b"").expect("an empty chunk is fine"), 0);
    session.restart_stream();
    session.feed(start.as_bytes()).expect("a new stream");
}

#[test]
fn a_continuation_changes_no_message() {
    let mut session = Session::new(SessionOptions::default());
    let start = r#"{"type":"REPLY_START","session_id":"s","reply_id":"r","name":"A"}"#;
    assert_eq!(session.apply_json(start).expect("opens"), Outcome::Applied);
    let revision = session.revision();
    assert_eq!(session.apply_json(start).expect("continues"), Outcome::Applied);
    assert_eq!(session.revision(), revision);
}

/// The events (or the first error code) a framer makes of `input` fed whole and split at
/// every byte; every split must agree.
fn framed(input: &[u8]) -> Vec<Result<String, &'static str>> {
    let run = |cut: usize| {
        let mut framer = Framer::new();
        framer.feed(&input[..cut]);
        framer.feed(&input[cut..]);
        framer.end();
        let mut out = Vec::new();
        while let Some(frame) = framer.next_frame() {
            out.push(frame.map(|f| f.data).map_err(|e| e.code()));
        }
        out
    };
    let whole = run(input.len());
    for cut in 0..input.len() {
        assert_eq!(
            run(cut),
            whole,
            "split at {cut} of {:?}",
            String::from_utf8_lossy(input)
        );
    }
    whole
}

#[test]
fn framing_edge_cases_do_not_depend_on_the_split() {
    let e = r#"{"type":"CUSTOM","name":"a"}"#;
    // a byte-order mark counts only at the very start
    assert_eq!(
        framed(format!(" \u{FEFF}data: {e}\n\n").as_bytes()),
        [Err("invalid_stream")]
    );
    assert_eq!(framed(format!("\u{FEFF} data: {e}\n\n").as_bytes()), [Ok(e.to_owned())]);
    // a JSON array: a missing comma is a framing error; a complete last element of an
    // unclosed array is still an event
    assert_eq!(framed(format!("[{e} {e}]").as_bytes()), [Err("invalid_stream")]);
    assert_eq!(
        framed(format!("[{e},{e}").as_bytes()),
        [Ok(e.to_owned()), Ok(e.to_owned()), Err("invalid_stream")]
    );
    assert_eq!(
        framed(format!("[{e},{{\"type\"").as_bytes()),
        [Ok(e.to_owned()), Err("invalid_stream")]
    );
    assert_eq!(framed(b"[\"a\" \"b\"]"), [Err("invalid_stream")]);
    assert_eq!(framed(b"[ ]"), []);
}

#[cfg(feature = "cli")]
#[test]
fn the_cli_caps_frames_with_max_frame_bytes() {
    let start = r#"{"type":"REPLY_START","session_id":"s","reply_id":"r","name":"a"}"#;
    let long = format!(r#"{{"type":"CUSTOM","name":"{}"}}"#, "x".repeat(300));
    let input = format!("{start}\n{long}\n");
    let out = cli(&["replay", "--max-frame-bytes", "200", "-"], Some(input.as_bytes()));
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("error[limit_exceeded] at event 2"), "{stderr}");
    let out = cli(&["replay", "-"], Some(input.as_bytes()));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[cfg(feature = "cli")]
#[test]
fn validate_drops_a_byte_order_mark_and_escapes_file_names_in_errors() {
    let dir = tempfile::tempdir().expect("dir");
    let file = dir.path().join("msg.json");
    let stored = std::fs::read(root().join("examples/recordings/a_plain_chat_zh_emoji/final_msg.json")).expect("read");
    std::fs::write(&file, [b"\xEF\xBB\xBF".as_slice(), &stored].concat()).expect("write");
    let out = cli(&["validate", file.to_str().expect("path")], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let missing = dir.path().join("no\x1b[31msuch");
    let out = cli(&["validate", missing.to_str().expect("path")], None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("error[io]") && !stderr.contains('\x1b'),
        "{stderr:?}"
    );
}

#[test]
fn restore_refuses_two_messages_of_one_reply_and_a_last_event_id_with_a_line_end() {
    let mut session = Session::new(SessionOptions::default());
    let start = r#"{"type":"REPLY_START","id":"e0","session_id":"s","reply_id":"r","name":"A"}"#;
    session
        .feed(format!("id: 5\ndata: {start}\n\n").as_bytes())
        .expect("feeds");
    let good: serde_json::Value = serde_json::from_str(&session.checkpoint()).expect("json");
    let mut twice = good.clone();
    let msg = twice["messages"][0].clone();
    twice["messages"] = serde_json::json!([msg.clone(), msg]);
    let err = Session::restore(&twice.to_string()).expect_err("two messages with one id");
    assert_eq!(err.code(), "invalid_checkpoint");
    assert!(err.to_string().contains("two messages with the id \"r\""), "{err}");
    let mut crlf = good.clone();
    crlf["last_event_id"] = "5\r\nX-Evil: 1".into();
    let err = Session::restore(&crlf.to_string()).expect_err("a line end in the id");
    assert_eq!(err.code(), "invalid_checkpoint");
    let restored = Session::restore(&good.to_string()).expect("the checkpoint as written");
    assert_eq!(restored.last_event_id(), Some("5"));
    let mut empty = good.clone();
    empty["last_event_id"] = "".into();
    let restored = Session::restore(&empty.to_string()).expect("an empty id");
    assert_eq!(
        restored.last_event_id(),
        None,
        "an empty id is no id, as in a live session"
    );
}

#[test]
fn a_delta_after_its_blocks_end_is_applied_with_an_after_block_end_warning_and_refused_when_strict() {
    // pydantic-ai#4733: TOOL_CALL_END, then TOOL_CALL_DELTA "}" makes the arguments invalid JSON
    let events = [
        r#"{"type":"REPLY_START","session_id":"s","reply_id":"r","name":"A"}"#,
        r#"{"type":"TOOL_CALL_START","reply_id":"r","tool_call_id":"c","tool_call_name":"f"}"#,
        r#"{"type":"TOOL_CALL_DELTA","reply_id":"r","tool_call_id":"c","delta":"{}"}"#,
        r#"{"type":"TOOL_CALL_END","reply_id":"r","tool_call_id":"c"}"#,
        r#"{"type":"TOOL_CALL_DELTA","reply_id":"r","tool_call_id":"c","delta":"}"}"#,
    ];
    let stream: String = events.iter().map(|e| format!("{e}\n")).collect();
    let mut lenient = Session::new(SessionOptions::default());
    lenient.feed(stream.as_bytes()).expect("lenient applies it");
    let d = lenient.diagnostics();
    assert_eq!(d.len(), 1);
    assert_eq!((d[0].index, d[0].code), (5, "after_block_end"));
    assert_eq!(d[0].message, "TOOL_CALL_DELTA after the end of tool_call block \"c\"");
    assert_eq!(
        serde_json::to_value(lenient.get("r").expect("reply")).expect("JSON")["content"][0]["input"],
        "{}}"
    );
    let mut strict = Session::new(SessionOptions {
        strict: true,
        ..SessionOptions::default()
    });
    let err = strict.feed(stream.as_bytes()).expect_err("strict refuses it");
    assert_eq!((err.code(), err.index), ("after_block_end", 5));
    assert_eq!(
        serde_json::to_value(strict.get("r").expect("reply")).expect("JSON")["content"][0]["input"],
        "{}"
    );
}

#[test]
fn a_confirmation_asked_for_a_call_never_started_names_the_call() {
    // ag-ui#1168: REQUIRE_USER_CONFIRM whose call id matches no started call
    let events = [
        r#"{"type":"REPLY_START","session_id":"s","reply_id":"r","name":"A"}"#,
        r#"{"type":"REQUIRE_USER_CONFIRM","reply_id":"r","tool_calls":[{"type":"tool_call","id":"c9","name":"Bash","input":"{}"}]}"#,
    ];
    let stream: String = events.iter().map(|e| format!("{e}\n")).collect();
    let mut session = Session::new(SessionOptions::default());
    session.feed(stream.as_bytes()).expect("feeds");
    let d = session.diagnostics();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].code, "unknown_block");
    assert_eq!(
        d[0].message,
        "REQUIRE_USER_CONFIRM for tool call \"c9\", which was never started (expected its start first)"
    );
}

#[test]
fn an_ask_about_a_call_never_started_waits_for_its_answer() {
    // ag-ui#1168: REQUIRE_USER_CONFIRM / REQUIRE_EXTERNAL_EXECUTION for calls the reply
    // never started: skipped by the reducer (unknown_block, as in the reference), but kept
    // as unstarted calls until their answer comes
    let call = |id: &str| format!(r#"{{"type":"tool_call","id":"{id}","name":"rm","input":"{{}}"}}"#);
    let stream = [
        r#"{"type":"REPLY_START","session_id":"s","reply_id":"r","name":"a"}"#.to_owned(),
        format!(
            r#"{{"type":"REQUIRE_USER_CONFIRM","reply_id":"r","tool_calls":[{}]}}"#,
            call("ghost")
        ),
        format!(
            r#"{{"type":"REQUIRE_EXTERNAL_EXECUTION","reply_id":"r","tool_calls":[{}]}}"#,
            call("far")
        ),
    ];
    let mut session = Session::new(SessionOptions::default());
    for e in &stream {
        session.apply_json(e).expect("applied or skipped");
    }
    let unstarted: Vec<(&str, &str, &str, ToolCallState)> = (session.unstarted_calls().iter())
        .map(|u| (u.reply_id.as_str(), u.kind, u.tool_call.id.as_str(), u.tool_call.state))
        .collect();
    let (asking, submitted) = (ToolCallState::Asking, ToolCallState::Submitted);
    assert_eq!(
        unstarted,
        vec![("r", "confirm", "ghost", asking), ("r", "external", "far", submitted)]
    );
    assert_eq!(session.get("r").expect("the reply").content().len(), 0);
    let codes: Vec<&str> = session.diagnostics().iter().map(|d| d.code).collect();
    assert_eq!(codes, vec!["unknown_block", "unknown_block"]);
    // the answers remove them, each of its own kind
    let revision = session.revision();
    session
        .apply_json(&format!(
            r#"{{"type":"USER_CONFIRM_RESULT","reply_id":"r","confirm_results":[{{"confirmed":true,"tool_call":{}}}]}}"#,
            call("ghost")
        ))
        .expect("skipped");
    assert!(session.revision() > revision, "a snapshot must be read again");
    assert_eq!(session.unstarted_calls().len(), 1);
    session
        .apply_json(
            r#"{"type":"EXTERNAL_EXECUTION_RESULT","reply_id":"r","execution_results":[{"type":"tool_result","id":"far","name":"rm","output":"ok","state":"success"}]}"#,
        )
        .expect("applied");
    assert!(session.unstarted_calls().is_empty());
    // a strict session refuses the ask, which then leaves no trace
    let mut strict = Session::new(SessionOptions {
        strict: true,
        ..SessionOptions::default()
    });
    strict.apply_json(&stream[0]).expect("a reply");
    assert_eq!(
        strict.apply_json(&stream[1]).map_err(|e| e.code()),
        Err("unknown_block")
    );
    assert!(strict.unstarted_calls().is_empty());
}
