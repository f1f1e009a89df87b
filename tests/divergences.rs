//! Where the reference (agentscope 2.0.11) is wrong, this port is right: each divergence
//! listed in docs/differences.md is tested here.
#![cfg(not(target_arch = "wasm32"))]

use agentscope_message::{
    AgentEvent, Base64Source, ContentBlock, DataSource, Msg, MsgOptions, TextOrBlocks, TextOrData, assistant_msg,
};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

fn msg() -> Msg {
    let options = MsgOptions {
        id: Some("r".into()),
        ..MsgOptions::default()
    };
    assistant_msg("Friday", vec![], options).expect("valid")
}

fn apply(msg: &mut Msg, json: &str) -> Result<(), agentscope_message::MsgError> {
    msg.append_event(&AgentEvent::from_json(json)?).map(|_| ())
}

#[test]
fn base64_after_url_is_a_typed_error_not_a_crash() {
    let mut m = msg();
    apply(
        &mut m,
        r#"{"type":"DATA_BLOCK_START","reply_id":"r","block_id":"d","media_type":"image/png"}"#,
    )
    .unwrap();
    apply(&mut m, r#"{"type":"DATA_BLOCK_DELTA","reply_id":"r","block_id":"d","media_type":"image/png","url":"HTTPS://Example.com/a.png"}"#).unwrap();
    let before = m.to_json();
    let err = apply(
        &mut m,
        r#"{"type":"DATA_BLOCK_DELTA","reply_id":"r","block_id":"d","media_type":"image/png","data":"bW9yZQ=="}"#,
    )
    .unwrap_err();
    assert_eq!(err.code(), "base64_after_url");
    assert_eq!(
        err.to_string(),
        "data block \"d\" already has a URL source; a base64 delta cannot be appended to it"
    );
    assert_eq!(m.to_json(), before);
    let ContentBlock::Data(block) = &m.content()[0] else {
        panic!("a data block")
    };
    let DataSource::Url(url) = &block.source else {
        panic!("a URL source")
    };
    assert_eq!(url.url, "https://example.com/a.png");
}

#[test]
fn base64_chunks_accumulate_as_bytes() {
    // 2 MiB in 1 KiB chunks (the reference re-decodes the whole payload per chunk)
    let payload: Vec<u8> = (0..2 * 1024 * 1024u32).map(|i| (i * 7 % 251) as u8).collect();
    let mut m = msg();
    apply(
        &mut m,
        r#"{"type":"DATA_BLOCK_START","reply_id":"r","block_id":"d","media_type":"application/octet-stream"}"#,
    )
    .unwrap();
    for chunk in payload.chunks(1024) {
        let event = format!(
            r#"{{"type":"DATA_BLOCK_DELTA","reply_id":"r","block_id":"d","media_type":"x","data":"{}"}}"#,
            STANDARD.encode(chunk)
        );
        apply(&mut m, &event).unwrap();
    }
    let ContentBlock::Data(block) = &m.content()[0] else {
        panic!("a data block")
    };
    let DataSource::Base64(src) = &block.source else {
        panic!("base64")
    };
    assert_eq!(src.decode().unwrap().as_ref(), payload.as_slice());
    assert_eq!(src.data(), STANDARD.encode(&payload));
    // START's media type is kept, as in the reference
    assert_eq!(src.media_type, "application/octet-stream");
    assert_eq!(src, &Base64Source::from_bytes(payload, "application/octet-stream"));
}

#[test]
fn a_surrogate_pair_split_across_deltas_joins() {
    let mut m = msg();
    for json in [
        r#"{"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"t"}"#,
        r#"{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"t","delta":"hello \ud83c"}"#,
        r#"{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"t","delta":"\udf0d 你"}"#,
        r#"{"type":"THINKING_BLOCK_START","reply_id":"r","block_id":"k"}"#,
        r#"{"type":"THINKING_BLOCK_DELTA","reply_id":"r","block_id":"k","delta":"\ud83d"}"#,
        r#"{"type":"THINKING_BLOCK_DELTA","reply_id":"r","block_id":"k","delta":"\ude00"}"#,
        r#"{"type":"TOOL_CALL_START","reply_id":"r","tool_call_id":"c","tool_call_name":"f"}"#,
        r#"{"type":"TOOL_CALL_DELTA","reply_id":"r","tool_call_id":"c","delta":"{\"q\": \"\ud83c"}"#,
        r#"{"type":"TOOL_CALL_DELTA","reply_id":"r","tool_call_id":"c","delta":"\udf0d\"}"}"#,
        r#"{"type":"TOOL_RESULT_START","reply_id":"r","tool_call_id":"c","tool_call_name":"f"}"#,
        r#"{"type":"TOOL_RESULT_TEXT_DELTA","reply_id":"r","tool_call_id":"c","delta":"\ud83c"}"#,
        r#"{"type":"TOOL_RESULT_TEXT_DELTA","reply_id":"r","tool_call_id":"c","delta":"\udf0d"}"#,
    ] {
        apply(&mut m, json).unwrap();
    }
    assert_eq!(m.get_text_content("\n").as_deref(), Some("hello 🌍 你"));
    let v = serde_json::to_value(&m).expect("JSON");
    assert_eq!(v["content"][1]["thinking"], "😀");
    assert_eq!(v["content"][2]["input"], "{\"q\": \"🌍\"}");
    assert_eq!(v["content"][3]["output"][0]["text"], "🌍");
}

#[test]
fn a_lone_surrogate_becomes_a_replacement_character() {
    let mut m = msg();
    apply(&mut m, r#"{"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"t"}"#).unwrap();
    apply(
        &mut m,
        r#"{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"t","delta":"a\ud83c"}"#,
    )
    .unwrap();
    // held at the end until the next delta shows it has no partner
    assert_eq!(m.get_text_content("").as_deref(), Some("a\u{FFFD}"));
    apply(
        &mut m,
        r#"{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"t","delta":"b\udf0dc"}"#,
    )
    .unwrap();
    assert_eq!(m.get_text_content("").as_deref(), Some("a\u{FFFD}b\u{FFFD}c"));
    // and the output is valid JSON that parses back
    assert_eq!(Msg::from_json(&m.to_json()).unwrap().to_json(), m.to_json());
}

#[test]
fn many_blocks_are_found_by_type_and_id_first_match_first() {
    let mut m = msg();
    for i in 0..2000 {
        apply(
            &mut m,
            &format!(r#"{{"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"b{i}"}}"#),
        )
        .unwrap();
    }
    // a thinking block sharing an id with a text block, and a duplicate text START
    apply(
        &mut m,
        r#"{"type":"THINKING_BLOCK_START","reply_id":"r","block_id":"b7"}"#,
    )
    .unwrap();
    apply(&mut m, r#"{"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"b7"}"#).unwrap();
    apply(
        &mut m,
        r#"{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"b7","delta":"x"}"#,
    )
    .unwrap();
    apply(
        &mut m,
        r#"{"type":"THINKING_BLOCK_DELTA","reply_id":"r","block_id":"b7","delta":"y"}"#,
    )
    .unwrap();
    apply(
        &mut m,
        r#"{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"b1999","delta":"z"}"#,
    )
    .unwrap();
    let v = serde_json::to_value(&m).expect("JSON");
    assert_eq!(v["content"][7]["text"], "x");
    assert_eq!(v["content"][2000]["thinking"], "y");
    assert_eq!(v["content"][2001]["text"], "");
    assert_eq!(v["content"][1999]["text"], "z");
    // content_mut resets the index: a block inserted in front is found at its new place
    m.content_mut()
        .insert(0, ContentBlock::Text(agentscope_message::TextBlock::with_id("b7", "")));
    apply(
        &mut m,
        r#"{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"b7","delta":"w"}"#,
    )
    .unwrap();
    assert_eq!(serde_json::to_value(&m).expect("JSON")["content"][0]["text"], "w");
}

#[test]
fn tool_result_url_errors_leave_a_string_output_untouched() {
    // the reference converts a str output to a list before raising on the URL
    let initial = r#"{"name":"n","role":"assistant","id":"r","content":[
        {"type":"tool_result","id":"c","name":"f","output":"done"}]}"#;
    let mut m = Msg::from_json(initial).unwrap();
    let before = m.to_json();
    let err = apply(&mut m, r#"{"type":"TOOL_RESULT_DATA_DELTA","reply_id":"r","tool_call_id":"c","block_id":"d","media_type":"image/png","url":"relative/x.png"}"#)
        .unwrap_err();
    assert_eq!(err.code(), "invalid_url");
    assert_eq!(m.to_json(), before);
    let ContentBlock::ToolResult(r) = &m.content()[0] else {
        panic!("tool result")
    };
    assert_eq!(r.output, TextOrBlocks::Text("done".into()));
    let ok = apply(
        &mut m,
        r#"{"type":"TOOL_RESULT_DATA_DELTA","reply_id":"r","tool_call_id":"c","block_id":"d","media_type":"image/png","url":"https://x.y/a b.png"}"#,
    );
    assert!(ok.is_ok());
    let ContentBlock::ToolResult(r) = &m.content()[0] else {
        panic!("tool result")
    };
    let TextOrBlocks::Blocks(items) = &r.output else {
        panic!("blocks")
    };
    assert!(matches!(&items[0], TextOrData::Text(t) if t.text == "done"));
    assert!(
        matches!(&items[1], TextOrData::Data(d) if matches!(&d.source, DataSource::Url(u) if u.url == "https://x.y/a%20b.png"))
    );
}

#[test]
fn token_counts_are_kept_in_128_bits_and_a_sum_past_them_is_refused_whole() {
    let mut m = msg();
    let end = |tokens: &str| {
        format!(r#"{{"type":"MODEL_CALL_END","reply_id":"r","input_tokens":{tokens},"output_tokens":1}}"#)
    };
    // 2^64 + 2^64, as the reference adds Python ints (tests/fixtures/reference-json)
    apply(&mut m, &end("18446744073709551616")).unwrap();
    apply(&mut m, &end("18446744073709551616")).unwrap();
    assert_eq!(m.usage.unwrap().input_tokens, 36_893_488_147_419_103_232);
    assert!(
        m.to_json()
            .contains(r#""input_tokens":36893488147419103232,"output_tokens":2,"#)
    );
    // 2^127 - 1 - 2^65 more fits exactly; one more token does not, and changes nothing
    let max = i128::MAX - 36_893_488_147_419_103_232;
    apply(&mut m, &end(&max.to_string())).unwrap();
    assert_eq!(m.usage.unwrap().input_tokens, i128::MAX);
    let before = m.to_json();
    let error = apply(&mut m, &end("1")).unwrap_err();
    assert_eq!(error.code(), "limit_exceeded");
    assert_eq!(m.to_json(), before);
    // a single count past 128 bits is refused when the event is read
    let error = apply(&mut m, &end("170141183460469231731687303715884105728")).unwrap_err();
    assert_eq!(error.code(), "invalid_event");
    assert!(error.to_string().contains("this port keeps 128 bits"), "{error}");
    assert_eq!(m.to_json(), before);
}

#[test]
fn free_form_numbers_keep_their_digits_as_python_writes_them() {
    // Python's json: integer literals are ints of any size (`-0` is 0); other numbers are
    // doubles, read exactly and written by repr (`1e400` is inf, which pydantic writes as
    // null). Expected texts: agentscope 2.0.11 (tests/fixtures/reference-json).
    let custom = |v: &str| {
        let json = format!(r#"{{"id":"e","created_at":"T","type":"CUSTOM","name":"n","value":{{"v":{v}}}}}"#);
        let out = AgentEvent::from_json(&json).unwrap().to_json();
        let tail = out.split(r#""value":{"v":"#).nth(1).unwrap().to_owned();
        tail.trim_end_matches("}}").to_owned()
    };
    for (input, want) in [
        ("-0", "0"),
        ("-0.0", "-0.0"),
        (
            "100000000000000000000000000000000000000000000000000000000000",
            "100000000000000000000000000000000000000000000000000000000000",
        ),
        ("-12345678901234567890123", "-12345678901234567890123"),
        ("9007199254740993.0", "9007199254740992.0"),
        ("123456789.12345679", "123456789.12345679"),
        ("1E5", "100000.0"),
        ("1e400", "null"),
        ("-1e400", "null"),
        ("[1, 2.50, -0]", "[1,2.5,0]"),
    ] {
        assert_eq!(custom(input), want, "{input}");
    }
}
