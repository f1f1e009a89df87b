//! Hosts that need IDNA in URL normalisation (issue #8, "URL with a non-ASCII host"),
//! against the reference: agentscope 2.0.11's `URLSource.url` is a pydantic 2.14.4
//! `AnyUrl`, i.e. the `url` crate with `idna` 1.1 on ICU4X 1.5 (Unicode 15.1).
//! Natively this port's `url` crate does its own IDNA, with the `idna_adapter` the build
//! resolves (1.2 here: ICU4X 2's tables; tested here); the .wasm's has no IDNA tables
//! (wasm/Cargo.toml), and the JS host's `URL` converts such hosts there
//! (tests/ts/idn.test.ts, in node and in Chromium). The corpus, one for all three, is
//! tests/fixtures/idn.json.
#![cfg(not(target_arch = "wasm32"))]

use std::sync::{Arc, Mutex, MutexGuard};

use agentscope_message::{
    AgentEvent, Msg, MsgOptions, assistant_msg, normalize_url, set_url_host_to_ascii, url_host_to_ascii,
};
use serde_json::Value;

/// The URL as stored, or the refusal ("Input should be a valid URL, " + its reason).
type Expected = Result<String, String>;

/// The corpus (see its `about`).
fn corpus() -> Value {
    serde_json::from_str(include_str!("fixtures/idn.json")).expect("valid JSON")
}

/// The (URL, result) cases of one list of the corpus; `place` picks a known
/// difference's result there instead of the reference's.
fn cases(list: &str, place: Option<&str>) -> Vec<(String, Expected)> {
    let result = |case: &Value| match (case["expected"].as_str(), case["error"].as_str()) {
        (Some(url), None) => Ok(url.to_owned()),
        (None, Some(reason)) => Err(format!("Input should be a valid URL, {reason}")),
        _ => panic!("a case has one of `expected` and `error`: {case}"),
    };
    let corpus = corpus();
    let list = corpus[list].as_array().expect("a list of cases");
    assert!(!list.is_empty());
    list.iter()
        .map(|case| {
            let url = case["url"].as_str().expect("a URL").to_owned();
            let here = place.map(|place| &case["differs"][place]).filter(|v| !v.is_null());
            (url, result(here.unwrap_or(case)))
        })
        .collect()
}

/// The IDNA step is process-wide: the tests take turns.
fn serial() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

fn normalized(url: &str) -> Result<String, String> {
    normalize_url(url).map_err(|e| e.to_string())
}

fn expected(e: Result<&str, &str>) -> Expected {
    e.map(str::to_owned)
        .map_err(|reason| format!("Input should be a valid URL, {reason}"))
}

/// The URL through the reducer: a `DATA_BLOCK_DELTA` with `url` makes the `URLSource`.
fn reduced(url: &str) -> Result<String, String> {
    let options = MsgOptions {
        id: Some("r1".into()),
        ..MsgOptions::default()
    };
    let mut msg = assistant_msg("agent", vec![], options).expect("valid");
    let start = r#"{"type":"DATA_BLOCK_START","reply_id":"r1","block_id":"b1","media_type":"image/png"}"#;
    msg.append_event(&AgentEvent::from_json(start).expect("valid"))
        .expect("applies");
    let delta = serde_json::json!({
        "type": "DATA_BLOCK_DELTA", "reply_id": "r1", "block_id": "b1", "media_type": "image/png", "url": url,
    });
    // the event itself keeps the URL as a plain string
    let event = AgentEvent::from_json(&delta.to_string()).expect("a DATA_BLOCK_DELTA takes any string");
    match msg.append_event(&event) {
        Ok(_) => Ok(serde_json::to_value(&msg).expect("JSON")["content"][0]["source"]["url"]
            .as_str()
            .expect("a URL source")
            .to_owned()),
        Err(e) => {
            assert_eq!(e.code(), "invalid_url", "{url:?}: {e}");
            Err(e.to_string())
        }
    }
}

/// The URL in a stored message, validated when the message is read.
fn stored(url: &str) -> Result<String, String> {
    let json = serde_json::json!({
        "name": "a", "role": "assistant", "id": "m1", "created_at": "T0",
        "content": [{"type": "data", "id": "d1", "created_at": "T0",
                     "source": {"type": "url", "url": url, "media_type": "image/png"}}],
    });
    match Msg::from_json(&json.to_string()) {
        Ok(msg) => Ok(serde_json::to_value(&msg).expect("JSON")["content"][0]["source"]["url"]
            .as_str()
            .expect("a URL source")
            .to_owned()),
        Err(e) => {
            assert_eq!(e.code(), "invalid_url", "{url:?}: {e}");
            Err(e.to_string())
        }
    }
}

#[test]
fn observed_urls_as_the_reference_stores_them() {
    let _serial = serial();
    for (url, want) in cases("observed", None) {
        assert_eq!(reduced(&url), want, "append_event with {url:?}");
        assert_eq!(stored(&url), want, "stored message with {url:?}");
    }
}

#[test]
fn checked_hosts_as_the_reference_normalises_them() {
    let _serial = serial();
    for (url, want) in cases("checked", None) {
        assert_eq!(normalized(&url), want, "{url:?}");
    }
}

/// Natively none is left (the corpus names no `native` place): the `url` crate's own
/// IDNA is the reference's; the differences listed are node's and Chromium's.
#[test]
fn known_differences_stay_known() {
    let _serial = serial();
    let reference = cases("known_differences", None);
    let native = cases("known_differences", Some("native"));
    for ((url, reference), (_, ours)) in reference.into_iter().zip(native) {
        assert_eq!(normalized(&url), ours, "{url:?} (the reference: {reference:?})");
    }
}

/// The public conversion natively (the `idna` crate the `url` crate uses, in the steps
/// every converter takes): each URL the reference accepts, converted and then parsed,
/// gives the reference's URL; each one it refuses for its host is refused.
#[test]
fn url_host_to_ascii_converts_as_the_url_crate() {
    let _serial = serial();
    for list in ["observed", "checked", "known_differences"] {
        for (url, want) in cases(list, None) {
            let got = match url_host_to_ascii(&url) {
                Some(ascii) => normalized(&ascii),
                None => Err("None".to_owned()),
            };
            match want {
                Ok(_) => assert_eq!(got, want, "{url:?}"),
                Err(_) => assert!(got.is_err(), "{url:?}: {got:?}, the reference: {want:?}"),
            }
        }
    }
}

#[test]
fn the_idna_step_can_be_replaced() {
    let _serial = serial();
    let calls = Arc::new(Mutex::new(Vec::new()));
    let seen = calls.clone();
    set_url_host_to_ascii(Some(Arc::new(move |url: &str| {
        seen.lock().unwrap().push(url.to_owned());
        (!url.contains("bad")).then(|| url.replace('ü', "xn--tda"))
    })));
    let results = [
        normalized("https://bad-ü.de/x"),
        normalized("https://ü.de/x"),
        normalized("https://example.com/ü"),
        normalized("https://xn--tda.de/%20"),
        normalized("https://example.com/x"),
    ];
    set_url_host_to_ascii(None);
    assert_eq!(
        results,
        [
            expected(Err("invalid international domain name")),
            Ok("https://xn--tda.de/x".to_owned()),
            Ok("https://example.com/xn--tda".to_owned()),
            Ok("https://xn--tda.de/%20".to_owned()),
            Ok("https://example.com/x".to_owned()),
        ]
    );
    // only for a URL that is not all ASCII, or has a `%` or an `xn--` in it
    assert_eq!(
        *calls.lock().unwrap(),
        [
            "https://bad-ü.de/x",
            "https://ü.de/x",
            "https://example.com/ü",
            "https://xn--tda.de/%20"
        ]
    );
    // the default again
    assert_eq!(
        normalized("https://bücher.de/x"),
        Ok("https://xn--bcher-kva.de/x".to_owned())
    );
}

/// Issue 19's findings, with the reference's results: Chromium accepts `xn--a.com`
/// (its label decodes to U+0080, a control character), node 20 (and the `idna` crate's
/// 0.5 line, which this crate no longer uses) map U+1E9E (ẞ) to "ss" where Unicode 15.1
/// maps it to ß.
#[test]
fn a_control_in_a_punycode_label_is_refused_and_capital_sharp_s_is_sharp_s() {
    let _serial = serial();
    assert_eq!(
        normalized("https://xn--a.com/"),
        expected(Err("invalid international domain name"))
    );
    assert_eq!(normalized("https://ẞ.de/x"), expected(Ok("https://xn--zca.de/x")));
    assert_eq!(normalized("https://FAẞ.de/x"), expected(Ok("https://xn--fa-hia.de/x")));
    // and both are in the corpus with these results
    let checked = cases("checked", None);
    for (url, want) in [
        ("https://xn--a.com/x", Err("invalid international domain name")),
        ("https://ẞ.de/x", Ok("https://xn--zca.de/x")),
        ("https://FAẞ.de/x", Ok("https://xn--fa-hia.de/x")),
    ] {
        assert!(checked.contains(&(url.to_owned(), expected(want))), "{url:?}");
    }
}
