//! The updates route (`Session::feed_updates`, `end_updates`), the `skip_invalid` option on
//! every route, and (feature `stream`) `UpdateStream` over an async byte stream.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use agentscope_message::{Outcome, Session, SessionOptions, Skip, Update, UpdateKind};
use common::session_cases::Cuts;
use common::*;
use serde_json::Value;

/// `REPLY_START` … `TEXT_BLOCK_END`, a bad frame (`e4`) in the middle, in one chunk.
const CHUNK_1: &str = concat!(
    "id: e1\ndata: {\"id\":\"a1\",\"type\":\"REPLY_START\",\"session_id\":\"s\",\"reply_id\":\"r1\",\"name\":\"Friday\"}\n\n",
    "id: e2\ndata: {\"id\":\"a2\",\"type\":\"TEXT_BLOCK_START\",\"reply_id\":\"r1\",\"block_id\":\"b1\"}\n\n",
    "id: e3\ndata: {\"id\":\"a3\",\"type\":\"TEXT_BLOCK_DELTA\",\"reply_id\":\"r1\",\"block_id\":\"b1\",\"delta\":\"Hel\"}\n\n",
    ": a comment\n\n",
    "id: e4\ndata: {\"id\":\"a4\",\"type\":\"TEXT_BLOCK_DELTA\",\"reply_id\":\"r1\",\n\n",
    "id: e5\ndata: {\"id\":\"a5\",\"type\":\"TEXT_BLOCK_DELTA\",\"reply_id\":\"r1\",\"block_id\":\"b1\",\"delta\":\"lo\"}\n\n",
    "id: e6\ndata: {\"id\":\"a6\",\"type\":\"TEXT_BLOCK_END\",\"reply_id\":\"r1\",\"block_id\":\"b1\"}\n\n",
);

/// The reply's end, its continuation and a delta of the continuation, in one chunk.
const CHUNK_2: &str = concat!(
    "id: e7\ndata: {\"id\":\"a7\",\"type\":\"REPLY_END\",\"session_id\":\"s\",\"reply_id\":\"r1\"}\n\n",
    "id: e8\ndata: {\"id\":\"a8\",\"type\":\"REPLY_START\",\"session_id\":\"s\",\"reply_id\":\"r1\",\"name\":\"Friday\"}\n\n",
    "id: e9\ndata: {\"id\":\"a9\",\"type\":\"TEXT_BLOCK_START\",\"reply_id\":\"r1\",\"block_id\":\"b2\"}\n\n",
    "data: {\"type\":\"TEXT_BLOCK_DELTA\",\"reply_id\":\"r1\",\"block_id\":\"b2\",\"delta\":\"again\"}\n\n",
);

/// A named SSE frame, an event of a type this version does not know, an invalid event,
/// and the last `REPLY_END` without its blank line (applied at the end).
const CHUNK_3: &str = concat!(
    "event: ping\ndata: 1\n\n",
    "id: e11\ndata: {\"id\":\"a11\",\"type\":\"NEWER_EVENT\",\"reply_id\":\"r1\"}\n\n",
    "id: e12\ndata: {\"id\":\"a12\",\"type\":\"TEXT_BLOCK_DELTA\",\"reply_id\":\"r1\"}\n\n",
    "id: e13\ndata: {\"id\":\"a13\",\"type\":\"TEXT_BLOCK_END\",\"reply_id\":\"r1\",\"block_id\":\"b2\"}\n\n",
    "id: e14\ndata: {\"id\":\"a14\",\"type\":\"REPLY_END\",\"session_id\":\"s\",\"reply_id\":\"r1\"}",
);

/// One line per update: index, what happened, type, reply id, event id, SSE id, and the
/// diagnostics' codes.
fn row(u: &Update) -> String {
    let kind = match &u.kind {
        UpdateKind::Applied => "applied".to_owned(),
        UpdateKind::Skipped(skip) => format!("skipped {}", skip.code()),
        UpdateKind::ReplyStarted { message, continued } => format!("started {message} continued={continued}"),
        UpdateKind::ReplyEnded { message, msg } => {
            format!("ended {message} {:?}", msg.get_text_content("|").unwrap_or_default())
        }
        UpdateKind::Refused(e) => format!("refused {}", e.code()),
        UpdateKind::Custom { name, value } => {
            format!("custom {name} {}", serde_json::to_string(value).expect("JSON"))
        }
    };
    let codes: Vec<&str> = u.diagnostics.iter().map(|d| d.code).collect();
    format!(
        "{} {kind} {} {} {} {} [{}]",
        u.index,
        u.event_type.map_or("-", |t| t.as_str()),
        u.reply_id.as_deref().unwrap_or("-"),
        u.event_id.as_deref().unwrap_or("-"),
        u.sse_id.as_deref().unwrap_or("-"),
        codes.join(",")
    )
}

fn rows(updates: &[Update]) -> Vec<String> {
    updates.iter().map(row).collect()
}

/// The three chunks through `feed_updates` and `end_updates`: the rows of each call, and
/// the last event id after it.
/// The rows of one call, and the last event id after it.
type Call = (Vec<String>, Option<String>);

fn replay(options: SessionOptions) -> (Session, Vec<Call>) {
    let mut session = Session::new(options);
    let mut calls = Vec::new();
    for chunk in [CHUNK_1, CHUNK_2, CHUNK_3] {
        let updates = session.feed_updates(chunk.as_bytes());
        calls.push((rows(&updates), session.last_event_id().map(str::to_owned)));
        if chunk == CHUNK_2 {
            // the continuation was applied: the message shows more than the ended update
            let now = session.message(0).and_then(|m| m.get_text_content("|"));
            assert_eq!(now.as_deref(), Some("Hello|again"));
            let ended = updates[0].ended().and_then(|m| m.get_text_content("|"));
            assert_eq!(ended.as_deref(), Some("Hello"));
            assert!(!session.is_ended("r1"), "the continuation re-opened the reply");
        }
    }
    let updates = session.end_updates();
    calls.push((rows(&updates), session.last_event_id().map(str::to_owned)));
    (session, calls)
}

fn call(rows: &[&str], last_event_id: &str) -> Call {
    (
        rows.iter().map(|r| r.to_string()).collect(),
        Some(last_event_id.to_owned()),
    )
}

#[test]
fn feed_updates_tells_each_event_and_the_end_before_a_continuation() {
    let (session, calls) = replay(SessionOptions::default());
    assert_eq!(
        calls,
        [
            call(
                &[
                    "1 started 0 continued=false REPLY_START r1 a1 e1 []",
                    "2 applied TEXT_BLOCK_START r1 a2 e2 []",
                    "3 applied TEXT_BLOCK_DELTA r1 a3 e3 []",
                    "4 refused invalid_json - - - e4 []",
                    "5 applied TEXT_BLOCK_DELTA r1 a5 e5 []",
                    "6 applied TEXT_BLOCK_END r1 a6 e6 []",
                ],
                "e6",
            ),
            call(
                &[
                    "7 ended 0 \"Hello\" REPLY_END r1 a7 e7 []",
                    "8 started 0 continued=true REPLY_START r1 a8 e8 []",
                    "9 applied TEXT_BLOCK_START r1 a9 e9 []",
                    // no `id:`: the frame keeps the last event id, and the event has no `id`
                    "10 applied TEXT_BLOCK_DELTA r1 - e9 []",
                ],
                "e9",
            ),
            call(
                &[
                    "11 skipped named_sse_event - - - e9 [named_sse_event]",
                    "12 skipped unknown_event_type - r1 a11 e11 [unknown_event_type]",
                    "13 refused invalid_event TEXT_BLOCK_DELTA r1 a12 e12 []",
                    "14 applied TEXT_BLOCK_END r1 a13 e13 []",
                ],
                "e13",
            ),
            call(&["15 ended 0 \"Hello|again\" REPLY_END r1 a14 e14 []"], "e14"),
        ]
    );
    assert!(session.is_ended("r1"));
    assert_eq!(session.events(), 15);
    let codes: Vec<&str> = session.diagnostics().iter().map(|d| d.code).collect();
    assert_eq!(codes, ["named_sse_event", "unknown_event_type"]);
}

#[test]
fn with_skip_invalid_a_bad_frame_is_a_diagnostic_with_its_code() {
    let options = SessionOptions {
        skip_invalid: true,
        ..SessionOptions::default()
    };
    let (session, calls) = replay(options);
    assert_eq!(calls[0].0[3], "4 skipped invalid_json - - - e4 [invalid_json]");
    assert_eq!(
        calls[2].0[2],
        "13 skipped invalid_event TEXT_BLOCK_DELTA r1 a12 e12 [invalid_event]"
    );
    let d = &session.diagnostics()[0];
    assert_eq!(
        (d.index, d.code, d.event_id.as_deref(), d.sse_id.as_deref()),
        (4, "invalid_json", None, Some("e4"))
    );
    let d = &session.diagnostics()[3];
    assert_eq!(
        (
            d.index,
            d.code,
            d.event_type.as_deref(),
            d.event_id.as_deref(),
            d.reply_id.as_deref()
        ),
        (13, "invalid_event", Some("TEXT_BLOCK_DELTA"), Some("a12"), Some("r1"))
    );
    assert!(d.message.contains("block_id"), "{}", d.message);
    // the rest of the sequence is that of the default options
    let (_, plain) = replay(SessionOptions::default());
    assert_eq!(calls[1], plain[1]);
    assert_eq!(calls[3], plain[3]);
}

#[test]
fn feed_stops_at_a_bad_frame_unless_skip_invalid() {
    let stream = [CHUNK_1, CHUNK_2, CHUNK_3].concat();
    let mut plain = Session::default();
    let error = plain.feed(stream.as_bytes()).expect_err("the bad frame is refused");
    assert_eq!(
        (error.index, error.code(), error.sse_id.as_deref()),
        (4, "invalid_json", Some("e4"))
    );
    assert_eq!(
        plain.last_event_id(),
        Some("e3"),
        "a refused event is sent again on resume"
    );
    let options = SessionOptions {
        skip_invalid: true,
        ..SessionOptions::default()
    };
    let mut lenient = Session::new(options);
    assert_eq!(lenient.feed(stream.as_bytes()), Ok(10));
    assert_eq!(lenient.end(), Ok(1));
    assert_eq!(lenient.last_event_id(), Some("e14"));
    let codes: Vec<&str> = lenient.diagnostics().iter().map(|d| d.code).collect();
    assert_eq!(
        codes,
        ["invalid_json", "named_sse_event", "unknown_event_type", "invalid_event"]
    );
    // apply_json too
    let mut session = Session::new(options);
    let outcome = session.apply_json("{oops").expect("skipped");
    assert_eq!(outcome, Outcome::Skipped(Skip::InvalidJson));
    assert_eq!(session.diagnostics()[0].code, "invalid_json");
    assert_eq!(
        Session::default().apply_json("{oops").map_err(|e| e.code()),
        Err("invalid_json")
    );
}

#[test]
fn skip_invalid_is_in_a_checkpoint_only_when_on() {
    assert!(!Session::default().checkpoint().contains("skip_invalid"));
    let options = SessionOptions {
        skip_invalid: true,
        ..SessionOptions::default()
    };
    let checkpoint = Session::new(options).checkpoint();
    assert!(checkpoint.contains(r#""skip_invalid":true"#), "{checkpoint}");
    assert_eq!(Session::restore(&checkpoint).expect("restores").options(), options);
    let json: SessionOptions = serde_json::from_str(r#"{"skip_invalid": true}"#).expect("options JSON");
    assert_eq!(json, options);
}

#[test]
fn bytes_after_the_end_are_one_refused_update() {
    let mut session = Session::default();
    assert!(session.end_updates().is_empty());
    let updates = session.feed_updates(b"data: {}\n\n");
    assert_eq!(rows(&updates), ["0 refused invalid_stream - - - - []"]);
}

#[test]
fn a_strict_refusal_holds_back_nothing_behind_it() {
    let options = SessionOptions {
        strict: true,
        ..SessionOptions::default()
    };
    let mut session = Session::new(options);
    let stream = concat!(
        "{\"type\":\"TEXT_BLOCK_DELTA\",\"reply_id\":\"r9\",\"block_id\":\"b\",\"delta\":\"x\"}\n",
        "{\"type\":\"REPLY_START\",\"session_id\":\"s\",\"reply_id\":\"r1\",\"name\":\"Friday\"}\n",
        "{\"type\":\"REPLY_END\",\"session_id\":\"s\",\"reply_id\":\"r1\"}\n",
    );
    assert_eq!(
        rows(&session.feed_updates(stream.as_bytes())),
        [
            "1 refused unknown_reply TEXT_BLOCK_DELTA r9 - - []",
            "2 started 0 continued=false REPLY_START r1 - - []",
            "3 ended 0 \"\" REPLY_END r1 - - []",
        ]
    );
}

/// The reference's messages of a recording.
fn expected(name: &str) -> Vec<Value> {
    match read_json(&root().join("examples/recordings").join(name).join("final_msg.json")) {
        Value::Array(msgs) => msgs,
        msg => vec![msg],
    }
}

fn stable(mut msg: Value) -> Value {
    null_recording_volatiles(&mut msg);
    msg
}

#[test]
fn every_recording_in_random_chunks_gives_one_ended_update_per_reply_equal_to_the_reference() {
    let mut cuts = Cuts::new(0x0feed);
    let mut failures = Vec::new();
    for dir in recordings() {
        let name = dir.file_name().expect("name").to_string_lossy().into_owned();
        let want: Vec<Value> = expected(&name).into_iter().map(stable).collect();
        for file in ["events.sse", "events.jsonl"] {
            let bytes = std::fs::read(dir.join(file)).expect("recording");
            for round in 0..3 {
                let mut session = Session::default();
                let mut updates = Vec::new();
                let mut from = 0;
                while from < bytes.len() {
                    let to = (from + 1 + cuts.below([16, 512, 8192][round])).min(bytes.len());
                    updates.extend(session.feed_updates(&bytes[from..to]));
                    from = to;
                }
                updates.extend(session.end_updates());
                assert_eq!(updates.len(), session.events(), "{name}/{file}: one update per event");
                let indexes: Vec<usize> = updates.iter().map(|u| u.index).collect();
                assert_eq!(indexes, (1..=updates.len()).collect::<Vec<_>>());
                assert!(
                    updates.iter().all(|u| !matches!(u.kind, UpdateKind::Refused(_))),
                    "{name}/{file}: nothing refused"
                );
                let ended: Vec<Value> = updates
                    .iter()
                    .filter_map(Update::ended)
                    .map(|m| stable(serde_json::to_value(m).expect("JSON")))
                    .collect();
                if ended.len() != want.len() {
                    failures.push(format!(
                        "{name}/{file}: {} ended updates, want {}",
                        ended.len(),
                        want.len()
                    ));
                    continue;
                }
                for (got, want) in ended.iter().zip(&want) {
                    failures.extend(json_diff(got, want, &format!("{name}/{file} round {round}")));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[cfg(feature = "stream")]
mod stream {
    use std::pin::{Pin, pin};
    use std::task::{Context, Poll, Waker};

    use agentscope_message::{Session, UpdateKind, UpdateStream};
    use futures_core::Stream;

    /// Chunks in memory, each polled once as pending first (as a socket would be).
    struct Chunks {
        items: std::vec::IntoIter<Result<Vec<u8>, String>>,
        ready: bool,
    }

    impl Stream for Chunks {
        type Item = Result<Vec<u8>, String>;
        fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
            self.ready = !self.ready;
            if !self.ready {
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
            Poll::Ready(self.items.next())
        }
    }

    /// Polls to the end: the items and how many polls were pending.
    fn collect(items: Vec<Result<Vec<u8>, String>>) -> (Vec<Result<String, String>>, Session) {
        let input = Chunks {
            items: items.into_iter(),
            ready: true,
        };
        let mut updates = pin!(UpdateStream::new(Session::default(), input));
        let mut cx = Context::from_waker(Waker::noop());
        let mut out = Vec::new();
        loop {
            match updates.as_mut().poll_next(&mut cx) {
                Poll::Pending => continue,
                Poll::Ready(None) => break,
                Poll::Ready(Some(item)) => out.push(item.map(|u| super::row(&u))),
            }
        }
        let session = std::mem::take(updates.session_mut());
        (out, session)
    }

    #[test]
    fn update_stream_feeds_each_chunk_and_ends_the_session_at_the_end() {
        let stream = [super::CHUNK_1, super::CHUNK_2, super::CHUNK_3].concat().into_bytes();
        let chunks = stream.chunks(100).map(|c| Ok(c.to_vec())).collect();
        let (items, session) = collect(chunks);
        let (_, calls) = super::replay(agentscope_message::SessionOptions::default());
        let want: Vec<Result<String, String>> = calls.into_iter().flat_map(|(rows, _)| rows).map(Ok).collect();
        assert_eq!(items, want);
        assert!(session.is_ended("r1"));
        assert_eq!(session.last_event_id(), Some("e14"));
    }

    #[test]
    fn update_stream_reports_a_custom_event_with_its_value() {
        let chunk = "data: {\"id\":\"c1\",\"type\":\"CUSTOM\",\"name\":\"mcp_progress\",\"value\":{\"n\":1}}\n\n";
        let (items, _) = collect(vec![Ok(chunk.as_bytes().to_vec())]);
        assert_eq!(
            items,
            [Ok("1 custom mcp_progress {\"n\":1} CUSTOM - c1 - [custom]".to_owned())]
        );
    }

    #[test]
    fn a_transport_error_is_an_item_and_leaves_the_session_open() {
        let (items, mut session) = collect(vec![
            Ok(super::CHUNK_1.as_bytes().to_vec()),
            Ok(b"id: e7\ndata: {\"type\":\"REPLY_".to_vec()),
            Err("connection reset".to_owned()),
            Ok(b"never read".to_vec()),
        ]);
        assert_eq!(items.len(), 7);
        assert_eq!(items[6], Err("connection reset".to_owned()));
        assert_eq!(session.last_event_id(), Some("e6"));
        // a resumed stream goes on from there
        session.restart_stream();
        let updates = session.feed_updates(super::CHUNK_2.as_bytes());
        assert!(matches!(updates[0].kind, UpdateKind::ReplyEnded { message: 0, .. }));
    }
}

/// Two sessions with their own id and timestamp factories, on two threads at once, each
/// fill in their own times (and `with_factories` its ids); the process-wide factories
/// stay as they are.
#[test]
fn sessions_with_their_own_factories_run_side_by_side() {
    use agentscope_message::AgentEvent;
    use agentscope_message::factory::{Factories, with_factories};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    let stream = concat!(
        r#"{"type":"REPLY_START","session_id":"s","reply_id":"r","name":"Friday"}"#,
        "\n",
        r#"{"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"t"}"#,
        "\n",
        r#"{"type":"REPLY_END","session_id":"s","reply_id":"r"}"#,
        "\n"
    );
    let run = |prefix: &'static str| {
        std::thread::spawn(move || {
            let next = Arc::new(AtomicUsize::new(0));
            let factories = Factories {
                id: Some(Arc::new(move || {
                    format!("{prefix}-{}", next.fetch_add(1, Ordering::Relaxed))
                })),
                timestamp: Some(Arc::new(move || format!("{prefix}-time"))),
            };
            let mut session = Session::new(SessionOptions::default());
            session.set_factories(factories.clone());
            let mut ended = Vec::new();
            for _ in 0..200 {
                session.restart_stream();
                let updates = session.feed_updates(stream.as_bytes());
                assert_eq!(updates.len(), 3);
                ended.extend(updates.iter().filter_map(|u| u.ended().cloned()));
            }
            let event = with_factories(&factories, || AgentEvent::from_json(r#"{"type":"CUSTOM","name":"n"}"#));
            (ended, event.expect("an event").id().to_owned())
        })
    };
    let (a, b) = (run("a"), run("b"));
    for (prefix, handle) in [("a", a), ("b", b)] {
        let (ended, event_id) = handle.join().expect("no panic");
        assert_eq!(ended.len(), 200);
        for msg in &ended {
            assert_eq!(msg.created_at, format!("{prefix}-time"));
            assert_eq!(msg.finished_at, Some(format!("{prefix}-time")));
            let block = &serde_json::to_value(msg).expect("JSON")["content"][0];
            assert_eq!(block["created_at"], format!("{prefix}-time"));
        }
        assert!(event_id.starts_with(&format!("{prefix}-")), "{event_id}");
    }
    assert!(!agentscope_message::generate_timestamp().ends_with("-time"));
    assert!(!agentscope_message::generate_id().contains('-'));
}

/// A chunk larger than what `feed` frames at once (64 KiB) gives what pushing it whole
/// and then applying gives: the same first error, the same messages, the rest of the
/// chunk waiting for the next call; and `feed_updates` the same updates as small chunks.
#[test]
fn a_large_chunk_is_applied_as_pushing_it_whole_would() {
    let mut stream = String::from(concat!(
        r#"{"type":"REPLY_START","session_id":"s","reply_id":"r","name":"Friday"}"#,
        "\n",
        r#"{"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"t"}"#,
        "\n"
    ));
    let delta = r#"{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"t","delta":"0123456789abcdef"}"#;
    for i in 0..6000 {
        if i == 3000 {
            // an unknown block: refused when strict
            stream.push_str(r#"{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"nope","delta":"x"}"#);
            stream.push('\n');
        }
        stream.push_str(delta);
        stream.push('\n');
    }
    assert!(stream.len() > 4 * (64 << 10));
    let strict = SessionOptions {
        strict: true,
        ..SessionOptions::default()
    };
    let summary = |session: &Session| (session.events(), session.message(0).map(|m| m.to_json()));
    let same = |a: &Session, b: &Session| summary(a) == summary(b);
    let new = || {
        let mut session = Session::new(strict);
        session.set_factories(agentscope_message::factory::Factories {
            id: Some(std::sync::Arc::new(|| "id".to_owned())),
            timestamp: Some(std::sync::Arc::new(|| "T".to_owned())),
        });
        session
    };

    let mut whole = new();
    let error = whole.feed(stream.as_bytes()).expect_err("refused");
    let mut pushed = new();
    pushed.push(stream.as_bytes()).expect("framed");
    let expected = pushed.feed(&[]).expect_err("refused");
    assert_eq!((error.code(), error.index), (expected.code(), expected.index));
    assert_eq!(error.index, 3003);
    assert!(same(&whole, &pushed));
    assert_eq!(whole.feed(&[]).expect("the rest"), 3000);
    assert_eq!(pushed.feed(&[]).expect("the rest"), 3000);
    assert!(same(&whole, &pushed));
    let text = whole.message(0).and_then(|m| m.get_text_content("")).expect("text");
    assert_eq!(text.len(), 6000 * 16);

    let kinds = |updates: Vec<agentscope_message::Update>| {
        updates
            .into_iter()
            .map(|u| (u.index, format!("{:?}", u.kind)))
            .collect::<Vec<_>>()
    };
    let mut one = new();
    let mut small = new();
    let all = kinds(one.feed_updates(stream.as_bytes()));
    let pieces: Vec<_> = stream
        .as_bytes()
        .chunks(1000)
        .flat_map(|c| kinds(small.feed_updates(c)))
        .collect();
    assert_eq!(all.len(), 6003);
    assert!(all == pieces);
    assert!(same(&one, &small));
}

/// `skip_invalid` skips a JSON Lines line or JSON array element that is not UTF-8 (which
/// the framer refuses itself) as it skips one that is not JSON, on every route.
#[test]
fn skip_invalid_skips_a_frame_that_is_not_utf8() {
    let lines: &[u8] = b"{\"type\":\"REPLY_START\",\"session_id\":\"s\",\"reply_id\":\"r\",\"name\":\"F\"}\n{\"type\":\"CUSTOM\",\"name\":\"\xff\",\"value\":{}}\n{\"type\":\"REPLY_END\",\"session_id\":\"s\",\"reply_id\":\"r\"}\n";
    let array: &[u8] = b"[{\"type\":\"REPLY_START\",\"session_id\":\"s\",\"reply_id\":\"r\",\"name\":\"F\"}, {\"type\":\"CUSTOM\",\"name\":\"\xff\",\"value\":{}}, {\"type\":\"REPLY_END\",\"session_id\":\"s\",\"reply_id\":\"r\"}]";
    let skipping = SessionOptions {
        skip_invalid: true,
        ..SessionOptions::default()
    };
    for stream in [lines, array] {
        let mut session = Session::new(skipping);
        let updates = session.feed_updates(stream);
        let updates: Vec<_> = updates.into_iter().chain(session.end_updates()).collect();
        assert_eq!(updates.len(), 3);
        assert!(
            matches!(updates[1].kind, UpdateKind::Skipped(Skip::InvalidJson)),
            "{:?}",
            updates[1].kind
        );
        assert!(updates[2].ended().is_some());
        assert_eq!(session.diagnostics()[0].code, "invalid_json");
        assert_eq!(session.diagnostics()[0].index, 2);

        let mut session = Session::new(skipping);
        assert_eq!(
            session.feed(stream).expect("skipped") + session.end().expect("ended"),
            2
        );
        assert!(session.is_ended("r"));

        // by default the reference's refusal
        let mut session = Session::default();
        let error = session.feed(stream).and_then(|_| session.end()).expect_err("refused");
        assert_eq!((error.code(), error.index), ("invalid_json", 2));
    }
}

/// A `CUSTOM` event is an update of its own with its name and value, and a `custom`
/// diagnostic; it changes no message, in strict sessions too; a repeat is a duplicate with
/// `dedup`.
#[test]
fn a_custom_event_is_reported_with_its_name_and_value() {
    let stream = concat!(
        "id: 1\ndata: {\"id\":\"a1\",\"type\":\"REPLY_START\",\"session_id\":\"s\",\"reply_id\":\"r1\",\"name\":\"Friday\"}\n\n",
        "id: 2\ndata: {\"id\":\"c1\",\"type\":\"CUSTOM\",\"name\":\"state_updated\",\"value\":{\"tasks_context\":{\"tasks\":[1,2.50]},\"permission_context\":null}}\n\n",
        "id: 3\ndata: {\"type\":\"CUSTOM\",\"name\":\"session_updated\"}\n\n",
        "id: 4\ndata: {\"id\":\"c1\",\"type\":\"CUSTOM\",\"name\":\"state_updated\",\"value\":{}}\n\n",
    );
    for strict in [false, true] {
        let mut session = Session::new(SessionOptions {
            dedup: true,
            strict,
            ..SessionOptions::default()
        });
        let updates = session.feed_updates(stream.as_bytes());
        assert_eq!(
            rows(&updates),
            [
                "1 started 0 continued=false REPLY_START r1 a1 1 []",
                // the value keeps its key order; a float reads as the reference reads it
                "2 custom state_updated {\"tasks_context\":{\"tasks\":[1,2.5]},\"permission_context\":null} CUSTOM - c1 2 [custom]",
                // no value on the wire: `{}` (the event's default)
                "3 custom session_updated {} CUSTOM - - 3 [custom]",
                "4 skipped duplicate CUSTOM - c1 4 [duplicate]",
            ]
        );
        let d = &updates[1].diagnostics[0];
        assert_eq!(
            (d.index, d.code, d.message.as_str(), d.event_type.as_deref()),
            (2, "custom", "CUSTOM event \"state_updated\"", Some("CUSTOM"))
        );
        assert_eq!(
            (d.event_id.as_deref(), d.reply_id.as_deref(), d.sse_id.as_deref()),
            (Some("c1"), None, Some("2"))
        );
        assert_eq!(d.name.as_deref(), Some("state_updated"));
        // serialized: name and value only on a custom diagnostic
        assert_eq!(
            serde_json::to_string(d).expect("JSON"),
            concat!(
                r#"{"index":2,"code":"custom","message":"CUSTOM event \"state_updated\"","event_type":"CUSTOM","#,
                r#""event_id":"c1","reply_id":null,"sse_id":"2","name":"state_updated","#,
                r#""value":{"tasks_context":{"tasks":[1,2.5]},"permission_context":null}}"#
            )
        );
        assert!(
            !serde_json::to_string(&updates[3].diagnostics[0])
                .expect("JSON")
                .contains("\"name\"")
        );
        // the message is as the REPLY_START left it
        assert_eq!(session.message(0).map(|m| m.content().len()), Some(0));
        let codes: Vec<&str> = session.diagnostics().iter().map(|d| d.code).collect();
        assert_eq!(codes, ["custom", "custom", "duplicate"]);
    }
    // apply_json and apply say `custom`; the reducer alone still ignores it
    let mut session = Session::default();
    let json = r#"{"type":"CUSTOM","name":"team_updated","value":{}}"#;
    assert_eq!(session.apply_json(json), Ok(Outcome::Skipped(Skip::Custom)));
    let event = agentscope_message::AgentEvent::from_json(json).expect("an event");
    assert_eq!(session.apply(&event), Ok(Outcome::Skipped(Skip::Custom)));
    assert_eq!(session.diagnostics().len(), 2);
    let mut msg = agentscope_message::assistant_msg("A", vec![], Default::default()).expect("a message");
    assert_eq!(msg.append_event(&event), Ok(Outcome::Skipped(Skip::IgnoredType)));
}

/// With `keep_events`, every event that decoded is kept with its outcome and its text as
/// it came; refused frames, frames that did not decode, unknown types and named SSE
/// frames are not; `take_events` empties the list.
#[test]
fn keep_events_keeps_every_decoded_event_as_it_came() {
    let stream = concat!(
        "id: 1\ndata: {\"id\":\"a1\",\"type\":\"REPLY_START\",\"session_id\":\"s\",\"reply_id\":\"r1\",\"name\":\"Friday\"}\n\n",
        "id: 2\ndata: {\"id\":\"c1\",\"type\":\"CUSTOM\",\n",
        "data:  \"name\":\"x\",\"value\":{\"k\":[1]}}\n\n",
        "event: ping\ndata: 1\n\n",
        "data: {\"type\":\"TEXT_BLOCK_DELTA\",\"reply_id\":\"r1\",\"block_id\":\"b9\",\"delta\":\"lost\"}\n\n",
        "data: {\"type\":\"NEWER_EVENT\",\"reply_id\":\"r1\"}\n\n",
        "data: {not json}\n\n",
        "data: {\"id\":\"a1\",\"type\":\"REPLY_START\",\"session_id\":\"s\",\"reply_id\":\"r1\",\"name\":\"Friday\"}\n\n",
        "data: {\"type\":\"MODEL_CALL_START\",\"reply_id\":\"r2\",\"model_name\":\"m\"}\n\n",
    );
    let mut session = Session::new(SessionOptions {
        keep_events: true,
        dedup: true,
        ..SessionOptions::default()
    });
    let updates = session.feed_updates(stream.as_bytes());
    assert_eq!(updates.len(), 8);
    let kept: Vec<(usize, &str, String)> = (session.take_events().into_iter())
        .map(|e| (e.index, e.outcome, e.json))
        .collect();
    assert_eq!(
        kept,
        [
            (
                1,
                "applied",
                "{\"id\":\"a1\",\"type\":\"REPLY_START\",\"session_id\":\"s\",\"reply_id\":\"r1\",\"name\":\"Friday\"}"
                    .to_owned()
            ),
            // the SSE data lines joined with a line end, as the frame had them
            (
                2,
                "custom",
                "{\"id\":\"c1\",\"type\":\"CUSTOM\",\n \"name\":\"x\",\"value\":{\"k\":[1]}}".to_owned()
            ),
            (
                4,
                "unknown_block",
                "{\"type\":\"TEXT_BLOCK_DELTA\",\"reply_id\":\"r1\",\"block_id\":\"b9\",\"delta\":\"lost\"}".to_owned()
            ),
            (
                7,
                "duplicate",
                "{\"id\":\"a1\",\"type\":\"REPLY_START\",\"session_id\":\"s\",\"reply_id\":\"r1\",\"name\":\"Friday\"}"
                    .to_owned()
            ),
            (
                8,
                "unknown_reply",
                "{\"type\":\"MODEL_CALL_START\",\"reply_id\":\"r2\",\"model_name\":\"m\"}".to_owned()
            ),
        ]
    );
    assert!(session.take_events().is_empty());
    // apply_json keeps its text, apply the event's wire JSON; a refused event nothing
    assert_eq!(
        session.apply_json(" {\"type\":\"CUSTOM\",\"name\":\"y\"} "),
        Ok(Outcome::Skipped(Skip::Custom))
    );
    let event = agentscope_message::AgentEvent::from_json(
        r#"{"id":"e","created_at":"T","type":"CUSTOM","name":"z","value":{}}"#,
    )
    .expect("an event");
    assert_eq!(session.apply(&event), Ok(Outcome::Skipped(Skip::Custom)));
    let strict = r#"{"type":"TEXT_BLOCK_DELTA","reply_id":"r1","block_id":"b1","delta":5}"#;
    assert!(session.apply_json(strict).is_err());
    let kept: Vec<(usize, &str, String)> = (session.take_events().into_iter())
        .map(|e| (e.index, e.outcome, e.json))
        .collect();
    assert_eq!(
        kept,
        [
            (9, "custom", " {\"type\":\"CUSTOM\",\"name\":\"y\"} ".to_owned()),
            (
                10,
                "custom",
                r#"{"id":"e","created_at":"T","metadata":{},"type":"CUSTOM","name":"z","value":{}}"#.to_owned()
            ),
        ]
    );
    // the option is in a checkpoint only when on; the kept events never are
    assert!(session.checkpoint().contains("\"keep_events\":true"));
    assert!(!Session::default().checkpoint().contains("keep_events"));
    // off: nothing is kept
    let mut off = Session::default();
    off.feed(stream.as_bytes()).ok();
    assert!(off.take_events().is_empty());
}
