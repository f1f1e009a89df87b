//! Issue 10's regression tests: the paths that were quadratic keep their results (their
//! cost is measured by `cargo bench --bench linear`, not timed here).
#![cfg(not(target_arch = "wasm32"))]

use agentscope_message::{AgentEvent, Msg, MsgOptions, Outcome, Skip, ToolCallMatch, assistant_msg};
use serde_json::{Value, json};

fn msg() -> Msg {
    let options = MsgOptions {
        id: Some("r".into()),
        ..MsgOptions::default()
    };
    assistant_msg("Friday", vec![], options).expect("valid")
}

fn apply(msg: &mut Msg, event: Value, how: ToolCallMatch) -> Result<Outcome, agentscope_message::MsgError> {
    let mut event = event;
    event["reply_id"] = json!("r");
    event["created_at"] = json!("t");
    msg.append_event_with(&AgentEvent::from_json(&event.to_string())?, how)
}

fn call(id: &str) -> Value {
    json!({"type": "tool_call", "id": id, "name": "f", "input": "{}"})
}

fn result(id: &str, output: &str) -> Value {
    json!({"type": "tool_result", "id": id, "name": "f", "output": output, "state": "success"})
}

/// `(type, id, output)` of every block.
fn blocks(msg: &Msg) -> Vec<(String, String, Value)> {
    let wire: Value = serde_json::from_str(&msg.to_json()).expect("json");
    wire["content"]
        .as_array()
        .expect("content")
        .iter()
        .map(|b| {
            (
                b["type"].as_str().unwrap().to_owned(),
                b["id"].as_str().unwrap().to_owned(),
                b["output"].clone(),
            )
        })
        .collect()
}

#[test]
fn external_execution_results_add_only_new_ids_decided_before_adding() {
    let first = ToolCallMatch::First;
    let mut m = msg();
    apply(
        &mut m,
        json!({"type": "TOOL_CALL_START", "tool_call_id": "a", "tool_call_name": "f"}),
        first,
    )
    .unwrap();
    apply(
        &mut m,
        json!({"type": "TOOL_RESULT_START", "tool_call_id": "a", "tool_call_name": "f"}),
        first,
    )
    .unwrap();
    // `a` has a result already; `b` is new and given twice in the one event: both are added,
    // as in the reference (its set of existing ids is taken before the loop)
    let event = json!({"type": "EXTERNAL_EXECUTION_RESULT",
        "execution_results": [result("a", "x"), result("b", "1"), result("b", "2")]});
    assert_eq!(apply(&mut m, event.clone(), first).unwrap(), Outcome::Applied);
    let ids: Vec<(String, String)> = blocks(&m).into_iter().map(|(t, id, _)| (t, id)).collect();
    let want = [
        ("tool_call", "a"),
        ("tool_result", "a"),
        ("tool_result", "b"),
        ("tool_result", "b"),
    ];
    assert_eq!(ids, want.map(|(t, i)| (t.to_owned(), i.to_owned())));
    // the same event again: every id has a result now
    assert_eq!(apply(&mut m, event, first).unwrap(), Outcome::Skipped(Skip::Stale));
}

#[test]
fn with_newest_a_repeated_call_id_needs_its_own_result() {
    for (how, added) in [(ToolCallMatch::First, false), (ToolCallMatch::Newest, true)] {
        let mut m = msg();
        let run = json!({"type": "REQUIRE_EXTERNAL_EXECUTION", "tool_calls": [call("s")]});
        apply(
            &mut m,
            json!({"type": "TOOL_CALL_START", "tool_call_id": "s", "tool_call_name": "f"}),
            how,
        )
        .unwrap();
        apply(
            &mut m,
            json!({"type": "EXTERNAL_EXECUTION_RESULT", "execution_results": [result("s", "1")]}),
            how,
        )
        .unwrap();
        // round 2 reuses the call id `s`
        apply(
            &mut m,
            json!({"type": "TOOL_CALL_START", "tool_call_id": "s", "tool_call_name": "f"}),
            how,
        )
        .unwrap();
        apply(&mut m, run, how).unwrap();
        let outcome = apply(
            &mut m,
            json!({"type": "EXTERNAL_EXECUTION_RESULT", "execution_results": [result("s", "2")]}),
            how,
        )
        .unwrap();
        assert_eq!(outcome == Outcome::Applied, added, "{how:?}");
        assert_eq!(blocks(&m).len(), if added { 4 } else { 3 }, "{how:?}");
    }
}

#[test]
fn tool_result_data_chunks_are_joined_and_a_bad_chunk_changes_nothing() {
    let first = ToolCallMatch::First;
    let mut m = msg();
    apply(
        &mut m,
        json!({"type": "TOOL_RESULT_START", "tool_call_id": "c", "tool_call_name": "f"}),
        first,
    )
    .unwrap();
    let chunk = |data: &str| {
        json!({"type": "TOOL_RESULT_DATA_DELTA", "tool_call_id": "c", "block_id": "d",
            "media_type": "image/png", "data": data})
    };
    // "hi" three times: the first chunk is kept as received, the second turns it into
    // bytes, the third extends them
    for data in ["aGk=", "aGk=", "aGk="] {
        apply(&mut m, chunk(data), first).unwrap();
    }
    let output = &blocks(&m)[0].2;
    assert_eq!(output[0]["source"]["data"], "aGloaWhp", "{output}");
    let before = m.to_json();
    let err = apply(&mut m, chunk("a"), first).unwrap_err();
    assert_eq!(err.code(), "invalid_base64");
    assert_eq!(m.to_json(), before);
}

/// The one finding of `fuzz/` (target `decode`): an integer beyond 64 bits in a free-form
/// value was a double, and serde_json's fast float reader gave some doubles one unit in
/// the last place off, so the wire JSON was not a fixed point. Numbers now keep their
/// digits: the integer is written as read, and the wire JSON is its own fixed point.
#[test]
fn fuzz_finding_a_big_integer_round_trips_exactly() {
    let input = r#"{"id":"ev-00001OM","name":"ssourcetate_dated","value":{"tasks":[1,25555555555155555555]}}"#;
    let first = AgentEvent::from_json(input).expect("a CUSTOM event (the smart union)");
    assert!(
        first
            .to_json()
            .contains(r#""value":{"tasks":[1,25555555555155555555]}"#),
        "{}",
        first.to_json()
    );
    let second = AgentEvent::from_json(&first.to_json()).expect("its own wire JSON");
    assert_eq!(second.to_json(), first.to_json());
}

mod frame_limit {
    use agentscope_message::{Session, SessionOptions};

    const START: &str = r#"{"type":"REPLY_START","session_id":"s","reply_id":"r","name":"a"}"#;
    const OPEN: &str = r#"{"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"t"}"#;

    fn delta(text: &str) -> String {
        format!(r#"{{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"t","delta":"{text}"}}"#)
    }

    /// Feeds `stream` in `chunk`-byte pieces; the codes of the errors, then the text.
    fn run(stream: &str, chunk: usize, max: usize) -> (Vec<&'static str>, String) {
        let mut session = Session::new(SessionOptions {
            max_frame_bytes: max,
            ..SessionOptions::default()
        });
        let mut codes = Vec::new();
        for piece in stream.as_bytes().chunks(chunk) {
            let mut result = session.feed(piece);
            while let Err(e) = result {
                codes.push(e.code());
                result = session.feed(b"");
            }
        }
        if let Err(e) = session.end() {
            codes.push(e.code());
        }
        let text = session
            .get("r")
            .map(|m| m.get_text_content("").unwrap_or_default())
            .unwrap_or_default();
        (codes, text)
    }

    #[test]
    fn a_frame_over_the_cap_is_refused_and_the_stream_goes_on() {
        let long = delta(&"x".repeat(500));
        let (a, b) = (delta("a"), delta("b"));
        let sse = [START, OPEN, &a, &long, &b].map(|e| format!("data: {e}\n\n")).concat();
        let jsonl = [START, OPEN, &a, &long, &b].map(|e| format!("{e}\n")).concat();
        for chunk in [1, 7, 4096] {
            assert_eq!(
                run(&sse, chunk, 200),
                (vec!["limit_exceeded"], "ab".to_owned()),
                "SSE in {chunk}"
            );
            assert_eq!(
                run(&jsonl, chunk, 200),
                (vec!["limit_exceeded"], "ab".to_owned()),
                "JSON Lines in {chunk}"
            );
            // under the cap (and by default) everything is applied
            assert_eq!(run(&sse, chunk, 600).1, format!("a{}b", "x".repeat(500)));
            assert_eq!(run(&jsonl, chunk, usize::MAX).0, Vec::<&str>::new());
            // 0 is no cap
            assert_eq!(run(&jsonl, chunk, 0), (vec![], format!("a{}b", "x".repeat(500))));
        }
        // in stream order, whatever the chunking: fed whole, the events before the long
        // frame are applied first, and the error is the 4th event
        let mut session = Session::new(SessionOptions {
            max_frame_bytes: 200,
            ..SessionOptions::default()
        });
        let err = session.feed(sse.as_bytes()).expect_err("the long frame");
        assert_eq!((err.code(), err.index), ("limit_exceeded", 4));
        assert_eq!(
            session.get("r").and_then(|m| m.get_text_content("")).as_deref(),
            Some("a")
        );
        // a JSON array cannot be read past an element it did not keep: it stops there
        let array = format!("[{START},{OPEN},{a},{long},{b}]");
        assert_eq!(run(&array, 7, 200), (vec!["limit_exceeded"], "a".to_owned()));
    }

    #[test]
    fn a_line_without_an_end_is_not_held_past_the_cap() {
        // 64 MiB of a comment-free line, in 64 KiB chunks: refused once, at its end
        let mut session = Session::new(SessionOptions {
            max_frame_bytes: 1 << 16,
            ..SessionOptions::default()
        });
        session.feed(format!("{START}\n").as_bytes()).expect("a reply");
        let chunk = vec![b'x'; 1 << 16];
        for _ in 0..1024 {
            session.feed(&chunk).expect("nothing complete yet");
        }
        assert_eq!(session.feed(b"\n").map_err(|e| e.code()), Err("limit_exceeded"));
        assert_eq!(session.len(), 1);
    }

    #[test]
    fn the_sse_frame_cap_counts_the_data_only() {
        let event = delta(&"x".repeat(20));
        let n = event.len();
        // one line: "data: " is not counted; exactly the cap fits, one byte more does not
        let sse = format!("data: {START}\n\ndata: {OPEN}\n\ndata: {event}\n\n");
        assert_eq!(run(&sse, 5, n), (vec![], "x".repeat(20)));
        assert_eq!(run(&sse, 5, n - 1), (vec!["limit_exceeded"], String::new()));
        // two data lines: their joining line end is data
        let (head, tail) = event.split_at(event.find(",\"reply_id\"").expect("a key") + 1);
        let two = format!("data: {START}\n\ndata: {OPEN}\n\ndata: {head}\ndata:{tail}\n\n");
        assert_eq!(run(&two, 3, n + 1).1, "x".repeat(20));
        assert_eq!(run(&two, 3, n).0.last(), Some(&"limit_exceeded"));
    }

    #[test]
    fn an_over_long_sse_id_is_ignored_not_copied_onto_every_event() {
        // 3 MiB of id, then 2,002 frames: the id line is refused and the last event id
        // stays the one before it (WHATWG would keep the long one on every event)
        let mut stream = format!("id: 1\ndata: {START}\n\nid: {}\ndata: {OPEN}\n\n", "7".repeat(3 << 20));
        for _ in 0..2_000 {
            stream.push_str(&format!("data: {}\n\n", delta("y")));
        }
        let mut session = Session::new(SessionOptions::default());
        let mut codes = Vec::new();
        for piece in stream.as_bytes().chunks(1 << 16) {
            let mut result = session.feed(piece);
            while let Err(e) = result {
                codes.push(e.code());
                result = session.feed(b"");
            }
        }
        session.end().expect("the end");
        assert_eq!(codes, vec!["limit_exceeded"]);
        assert_eq!(session.last_event_id(), Some("1"));
        let text = session
            .get("r")
            .and_then(|m| m.get_text_content(""))
            .unwrap_or_default();
        assert_eq!(text, "y".repeat(2_000));
        // an id of 4 KiB is kept
        let fits = "8".repeat(4096);
        let mut session = Session::new(SessionOptions::default());
        session
            .feed(format!("id: {fits}\ndata: {START}\n\n").as_bytes())
            .expect("kept");
        assert_eq!(session.last_event_id(), Some(fits.as_str()));
    }

    #[test]
    fn a_refused_sse_id_comes_after_the_frames_before_it_whatever_the_chunks() {
        let stream = format!("id: a\ndata: {START}\n\nid: {}\ndata: {OPEN}\n\n", "7".repeat(5000));
        let errors = |chunk: usize| {
            let mut session = Session::new(SessionOptions::default());
            let mut seen = Vec::new();
            for piece in stream.as_bytes().chunks(chunk) {
                let mut result = session.feed(piece);
                while let Err(e) = result {
                    seen.push((e.code(), e.index));
                    result = session.feed(b"");
                }
            }
            session.end().expect("the end");
            (seen, session.len(), session.last_event_id().map(str::to_owned))
        };
        // the START is event 1, the refused id line event 2, the OPEN event 3
        let whole = errors(stream.len());
        assert_eq!(whole, (vec![("limit_exceeded", 2)], 1, Some("a".to_owned())));
        for chunk in [1, 7, 4096] {
            assert_eq!(errors(chunk), whole, "in {chunk}-byte chunks");
        }
    }
}
