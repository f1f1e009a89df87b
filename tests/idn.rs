//! Hosts that need IDNA in URL normalisation (issue #8, "URL with a non-ASCII host"),
//! against the reference: agentscope 2.0.11's `URLSource.url` is a pydantic 2.14.4
//! `AnyUrl`, i.e. the `url` crate with `idna` 1.1 on ICU4X 1.5 (Unicode 15.1).
//! This port's `url` crate has no IDNA tables (see Cargo.toml): natively the `idna`
//! crate's 0.5 line converts such hosts (tested here), in wasm the JS host's `URL`.
#![cfg(not(target_arch = "wasm32"))]

use std::sync::{Arc, Mutex, MutexGuard};

use agentscope_message::{AgentEvent, Msg, MsgOptions, assistant_msg, factory, normalize_url};

/// The URL as stored, or the reason of the refusal ("Input should be a valid URL, " + it).
type Expected = Result<&'static str, &'static str>;

/// The reference's observations (/tmp/ref-observations/misc.json, "URL '…'" cases: the
/// same result through `append_event` and through a stored message).
const OBSERVED: &[(&str, Expected)] = &[
    ("https://example.com/x.png", Ok("https://example.com/x.png")),
    ("https://bücher.de/x.png", Ok("https://xn--bcher-kva.de/x.png")),
    ("HTTPS://BÜCHER.DE/x.png", Ok("https://xn--bcher-kva.de/x.png")),
    ("https://bücher．de/x.png", Ok("https://xn--bcher-kva.de/x.png")),
    ("https://bücher。de/x.png", Ok("https://xn--bcher-kva.de/x.png")),
    ("https://bücher｡de/x.png", Ok("https://xn--bcher-kva.de/x.png")),
    ("https://😀.com/x.png", Ok("https://xn--e28h.com/x.png")),
    ("https://i❤\u{FE0F}.ws/", Ok("https://xn--i-7iq.ws/")),
    ("https://pаypal.com/", Ok("https://xn--pypal-4ve.com/")),
    (
        "https://例え.テスト/パス?q=値#frag",
        Ok("https://xn--r8jz45g.xn--zckzah/%E3%83%91%E3%82%B9?q=%E5%80%A4#frag"),
    ),
    ("https://xn--bcher-kva.de/x.png", Ok("https://xn--bcher-kva.de/x.png")),
    ("https://XN--BCHER-KVA.DE/x.png", Ok("https://xn--bcher-kva.de/x.png")),
    ("https://xn--a.com/", Err("invalid international domain name")),
    ("https://xn--/", Err("invalid international domain name")),
    ("https://xn--zca.de/", Ok("https://xn--zca.de/")),
    ("https://faß.de/", Ok("https://xn--fa-hia.de/")),
    ("https://ΣΊΣΥΦΟΣ.gr/", Ok("https://xn--kxa6akbbkh.gr/")),
    (
        "https://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.com/",
        Ok("https://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.com/"),
    ),
    (
        "https://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.com/",
        Ok("https://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.com/"),
    ),
    (
        "https://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.com/",
        Ok(
            "https://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.com/",
        ),
    ),
    ("https://ex ample.com/", Err("invalid international domain name")),
    ("https://ex%20ample.com/", Err("invalid international domain name")),
    (
        "https://example.com/a b/ü?q=a b&r=ü#f ü",
        Ok("https://example.com/a%20b/%C3%BC?q=a%20b&r=%C3%BC#f%20%C3%BC"),
    ),
    ("https://EXAMPLE.COM./", Ok("https://example.com./")),
    ("https://example.com:443/", Ok("https://example.com/")),
    ("http://example.com:80/", Ok("http://example.com/")),
    ("https://example.com:0443/", Ok("https://example.com/")),
    ("https://example.com:99999/", Err("invalid port number")),
    ("https://[::1]:8080/", Ok("https://[::1]:8080/")),
    ("https://[0:0:0:0:0:0:0:1]/", Ok("https://[::1]/")),
    ("http://0x7f.1/", Ok("http://127.0.0.1/")),
    ("http://127.1/", Ok("http://127.0.0.1/")),
    ("http://256.1.1.1/", Err("invalid IPv4 address")),
    ("https://ex_ample.com/", Ok("https://ex_ample.com/")),
    ("https://-a.com/", Ok("https://-a.com/")),
    ("https://a..b/", Ok("https://a..b/")),
    ("https://\u{200B}example.com/", Ok("https://example.com/")),
    ("https://ＥＸＡＭＰＬＥ.com/", Ok("https://example.com/")),
    (
        "https://user:p%40ss@example.com/",
        Ok("https://user:p%40ss@example.com/"),
    ),
    (
        "https://user:pa ss@example.com/",
        Ok("https://user:pa%20ss@example.com/"),
    ),
    ("https://", Err("empty host")),
    ("https:///x", Ok("https://x/")),
    ("//example.com/x", Err("relative URL without a base")),
    ("example.com/x.png", Err("relative URL without a base")),
    ("mailto:a@b.c", Ok("mailto:a@b.c")),
    ("urn:isbn:0451450523", Ok("urn:isbn:0451450523")),
    ("file:///tmp/x.png", Ok("file:///tmp/x.png")),
    ("data:image/png;base64,AAAA", Ok("data:image/png;base64,AAAA")),
    ("javascript:alert(1)", Ok("javascript:alert(1)")),
    (
        "HTTP://Example.COM/Path/%7e?Q=%41",
        Ok("http://example.com/Path/%7e?Q=%41"),
    ),
    (
        "https://example.com/\\back\\slash",
        Ok("https://example.com//back/slash"),
    ),
    ("https:\\\\example.com\\x", Ok("https://example.com/x")),
    ("https://example.com/%zz", Ok("https://example.com/%zz")),
    ("https://example.com/\t/x\n", Ok("https://example.com//x")),
    (" https://example.com/ ", Ok("https://example.com/")),
];

/// More hosts, each run through pydantic's `AnyUrl` (the reference's `URLSource.url`):
/// WPT's url/resources/toascii.json as `https://HOST/x`, mixed scripts, case, full-width
/// and ideographic dots, emoji, Punycode labels, joiners (ContextJ), bidi, percent-
/// encoded hosts, and where a host sits in other URL shapes.
const CHECKED: &[(&str, Expected)] = &[
    ("https://aa--/x", Ok("https://aa--/x")),
    ("https://a†--/x", Ok("https://xn--a---kp0a/x")),
    ("https://ab--c/x", Ok("https://ab--c/x")),
    ("https://-x/x", Ok("https://-x/x")),
    ("https://-†/x", Ok("https://xn----xhn/x")),
    ("https://-x.xn--zca/x", Ok("https://-x.xn--zca/x")),
    ("https://-x.ß/x", Ok("https://-x.xn--zca/x")),
    ("https://x-.xn--zca/x", Ok("https://x-.xn--zca/x")),
    ("https://x-.ß/x", Ok("https://x-.xn--zca/x")),
    ("https://x..xn--zca/x", Ok("https://x..xn--zca/x")),
    ("https://x..ß/x", Ok("https://x..xn--zca/x")),
    ("https://xn--a/x", Err("invalid international domain name")),
    ("https://xn--a.xn--zca/x", Err("invalid international domain name")),
    ("https://xn--a.ß/x", Err("invalid international domain name")),
    ("https://xn--ls8h=/x", Err("invalid international domain name")),
    ("https://xn--tešla/x", Err("invalid international domain name")),
    ("https://xn--zca.xn--zca/x", Ok("https://xn--zca.xn--zca/x")),
    ("https://xn--zca.ß/x", Ok("https://xn--zca.xn--zca/x")),
    ("https://ab--c.xn--zca/x", Ok("https://ab--c.xn--zca/x")),
    ("https://ab--c.ß/x", Ok("https://ab--c.xn--zca/x")),
    ("https://\u{200D}.example/x", Err("invalid international domain name")),
    ("https://xn--1ug.example/x", Err("invalid international domain name")),
    ("https://يa/x", Err("invalid international domain name")),
    ("https://ي./x", Ok("https://xn--mhb./x")),
    ("https://1.ي/x", Err("invalid international domain name")),
    ("https://ي.1/x", Err("invalid international domain name")),
    ("https://xn--mhb.1/x", Err("invalid international domain name")),
    ("https://xn--a-yoc/x", Err("invalid international domain name")),
    ("https://ශ\u{DCA}ර\u{DD3}/x", Ok("https://xn--10cl1a0b/x")),
    ("https://نامهای/x", Ok("https://xn--mgba3gch31f/x")),
    ("https://�.com/x", Err("invalid international domain name")),
    ("https://xn--zn7c.com/x", Err("invalid international domain name")),
    (
        "https://x01234567890123456789012345678901234567890123456789012345678901x/x",
        Ok("https://x01234567890123456789012345678901234567890123456789012345678901x/x"),
    ),
    (
        "https://x01234567890123456789012345678901234567890123456789012345678901†/x",
        Ok("https://xn--x01234567890123456789012345678901234567890123456789012345678901-6963b/x"),
    ),
    (
        "https://x01234567890123456789012345678901234567890123456789012345678901x.ß/x",
        Ok("https://x01234567890123456789012345678901234567890123456789012345678901x.xn--zca/x"),
    ),
    ("https://a\u{AD}b/x", Ok("https://ab/x")),
    ("https://≠/x", Ok("https://xn--1ch/x")),
    ("https://≮/x", Ok("https://xn--gdh/x")),
    ("https://≯/x", Ok("https://xn--hdh/x")),
    ("https://bücher.de/x", Ok("https://xn--bcher-kva.de/x")),
    ("https://BÜCHER.DE/x", Ok("https://xn--bcher-kva.de/x")),
    ("https://bücher．de/x", Ok("https://xn--bcher-kva.de/x")),
    ("https://bücher。de/x", Ok("https://xn--bcher-kva.de/x")),
    ("https://bücher｡de/x", Ok("https://xn--bcher-kva.de/x")),
    ("https://😀.com/x", Ok("https://xn--e28h.com/x")),
    ("https://i❤\u{FE0F}.ws/x", Ok("https://xn--i-7iq.ws/x")),
    ("https://pаypal.com/x", Ok("https://xn--pypal-4ve.com/x")),
    ("https://例え.テスト/x", Ok("https://xn--r8jz45g.xn--zckzah/x")),
    ("https://xn--bcher-kva.de/x", Ok("https://xn--bcher-kva.de/x")),
    ("https://XN--BCHER-KVA.DE/x", Ok("https://xn--bcher-kva.de/x")),
    ("https://xn--a.com/x", Err("invalid international domain name")),
    ("https://xn--/x", Err("invalid international domain name")),
    ("https://xn--zca.de/x", Ok("https://xn--zca.de/x")),
    ("https://faß.de/x", Ok("https://xn--fa-hia.de/x")),
    ("https://ΣΊΣΥΦΟΣ.gr/x", Ok("https://xn--kxa6akbbkh.gr/x")),
    ("https://ex ample.com/x", Err("invalid international domain name")),
    ("https://ex%20ample.com/x", Err("invalid international domain name")),
    ("https://\u{200B}example.com/x", Ok("https://example.com/x")),
    ("https://ＥＸＡＭＰＬＥ.com/x", Ok("https://example.com/x")),
    ("https://b%C3%BCcher.de/x", Ok("https://xn--bcher-kva.de/x")),
    ("https://b%FCcher.de/x", Err("invalid international domain name")),
    ("https://０x7f.1/x", Ok("https://127.0.0.1/x")),
    ("https://１２７.０.０.１/x", Ok("https://127.0.0.1/x")),
    ("https://a／b.com/x", Err("invalid international domain name")),
    ("https://℀.com/x", Err("invalid international domain name")),
    ("https://bücher.de:8080/x", Ok("https://xn--bcher-kva.de:8080/x")),
    ("https://user:pw@bücher.de/x", Ok("https://user:pw@xn--bcher-kva.de/x")),
    ("https://xn--e28h.com/x", Ok("https://xn--e28h.com/x")),
    ("https://xn--i-7iq.ws/x", Ok("https://xn--i-7iq.ws/x")),
    ("https://-ü.com/x", Ok("https://xn----eha.com/x")),
    ("https://ü-.com/x", Ok("https://xn----dha.com/x")),
    ("https://ab--ü.com/x", Ok("https://xn--ab---3ra.com/x")),
    ("https://a..ü/x", Ok("https://a..xn--tda/x")),
    ("https://xn--ASCII-/x", Err("invalid international domain name")),
    ("https://xn--unicode-.org/x", Err("invalid international domain name")),
    ("https://Ⅻ.com/x", Ok("https://xii.com/x")),
    ("https://ｂücher.de/x", Ok("https://xn--bcher-kva.de/x")),
    ("https://mañana.com/x", Ok("https://xn--maana-pta.com/x")),
    ("https://مثال.إختبار/x", Ok("https://xn--mgbh0fb.xn--kgbechtv/x")),
    ("https://пример.рф/x", Ok("https://xn--e1afmkfd.xn--p1ai/x")),
    ("https://ПРИМЕР.РФ/x", Ok("https://xn--e1afmkfd.xn--p1ai/x")),
    ("https://例子.测试/x", Ok("https://xn--fsqu00a.xn--0zwm56d/x")),
    (
        "https://उद\u{93E}हरण.पर\u{940}क\u{94D}ष\u{93E}/x",
        Ok("https://xn--p1b6ci4b4b3a.xn--11b5bs3a9aj6g/x"),
    ),
    ("https://실례.테스트/x", Ok("https://xn--9n2bp8q.xn--9t4b11yi5a/x")),
    ("https://ελληνικά.gr/x", Ok("https://xn--hxargifdar.gr/x")),
    ("https://עברית.il/x", Ok("https://xn--5dbqzzl.il/x")),
    ("https://a\u{200C}b/x", Err("invalid international domain name")),
    ("https://न\u{94D}\u{200D}क.in/x", Ok("https://xn--11b1b1gu62h.in/x")),
    ("https://نامه\u{200C}ای.ir/x", Ok("https://xn--mgba3gch31f060k.ir/x")),
    ("https://a\u{300}.com/x", Ok("https://xn--0ca.com/x")),
    ("https://\u{300}a.com/x", Err("invalid international domain name")),
    ("https://1.ü/x", Ok("https://1.xn--tda/x")),
    ("https://ü.1/x", Err("invalid IPv4 address")),
    ("https://ü.123/x", Err("invalid IPv4 address")),
    ("https://ü:99999/x", Err("invalid port number")),
    ("https://ü%2Fx.com/x", Err("invalid international domain name")),
    ("https://ü%41.com/x", Ok("https://xn--a-dha.com/x")),
    ("https://ü\u{AD}.com/x", Ok("https://xn--tda.com/x")),
    ("https://.ü./x", Ok("https://.xn--tda./x")),
    (
        "https://üüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüü.com/x",
        Ok("https://xn--tdaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.com/x"),
    ),
    ("http://bücher.de", Ok("http://xn--bcher-kva.de/")),
    ("file://bücher.de/x", Ok("file://xn--bcher-kva.de/x")),
    ("FILE:\\\\bücher.de\\x", Ok("file://xn--bcher-kva.de/x")),
    ("https:\\\\bücher.de\\x", Ok("https://xn--bcher-kva.de/x")),
    ("http:bücher.de/x", Ok("http://xn--bcher-kva.de/x")),
    ("ftp://a@b@ü.de/", Ok("ftp://a%40b@xn--tda.de/")),
    ("ws://Ü.com:8080/p?q#f", Ok("ws://xn--tda.com:8080/p?q#f")),
    ("wss://ü.com:443/", Ok("wss://xn--tda.com/")),
    ("foo://bücher.de/x", Ok("foo://b%C3%BCcher.de/x")),
    ("foo://xn--a/x", Ok("foo://xn--a/x")),
    ("https://bücher.de\t/x\n", Ok("https://xn--bcher-kva.de/x")),
    (" https://bücher.de ", Ok("https://xn--bcher-kva.de/")),
    ("https://[::1]/ü", Ok("https://[::1]/%C3%BC")),
    (
        "https://user:ü@ü.de/ü?ü#ü",
        Ok("https://user:%C3%BC@xn--tda.de/%C3%BC?%C3%BC#%C3%BC"),
    ),
    ("https://xn--a.com:99999/", Err("invalid international domain name")),
    ("https://xn--bcher-kva。de/x", Ok("https://xn--bcher-kva.de/x")),
    ("https://XN--BCHER-KVA．DE/x", Ok("https://xn--bcher-kva.de/x")),
];

/// Where this port differs natively: (URL, reference, this port). A host that IDNA maps
/// to nothing is "invalid international domain name", not "empty host". The `idna` 0.5
/// line has Unicode 13's tables (the reference: Unicode 15.1's): later emoji are refused,
/// U+1E9E (ẞ) maps to "ss", some CJK compatibility ideographs are refused.
const KNOWN_DIFFERENCES: &[(&str, Expected, Expected)] = &[
    (
        "https://\u{200B}/x",
        Err("empty host"),
        Err("invalid international domain name"),
    ),
    (
        "https://🫠.com/x",
        Ok("https://xn--129h.com/x"),
        Err("invalid international domain name"),
    ),
    (
        "https://\u{1FA77}.com/x",
        Ok("https://xn--1z9h.com/x"),
        Err("invalid international domain name"),
    ),
    (
        "https://FAẞ.de/x",
        Ok("https://xn--fa-hia.de/x"),
        Ok("https://fass.de/x"),
    ),
    (
        "https://陋㛼.com/x",
        Ok("https://xn--snl932y.com/x"),
        Err("invalid international domain name"),
    ),
];

/// The IDNA step is process-wide: the tests take turns.
fn serial() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

fn normalized(url: &str) -> Result<String, String> {
    normalize_url(url).map_err(|e| e.to_string())
}

fn expected(e: Expected) -> Result<String, String> {
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
        Ok(_) => Ok(msg.to_value()["content"][0]["source"]["url"]
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
        Ok(msg) => Ok(msg.to_value()["content"][0]["source"]["url"]
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
    for &(url, want) in OBSERVED {
        assert_eq!(reduced(url), expected(want), "append_event with {url:?}");
        assert_eq!(stored(url), expected(want), "stored message with {url:?}");
    }
}

#[test]
fn checked_hosts_as_the_reference_normalises_them() {
    let _serial = serial();
    for &(url, want) in CHECKED {
        assert_eq!(normalized(url), expected(want), "{url:?}");
    }
}

#[test]
fn known_differences_stay_known() {
    let _serial = serial();
    for &(url, reference, ours) in KNOWN_DIFFERENCES {
        assert_ne!(reference, ours, "{url:?}");
        assert_eq!(
            normalized(url),
            expected(ours),
            "{url:?} (the reference: {reference:?})"
        );
    }
}

#[test]
fn the_idna_step_can_be_replaced() {
    let _serial = serial();
    let calls = Arc::new(Mutex::new(Vec::new()));
    let seen = calls.clone();
    factory::set_url_host_to_ascii(Some(Arc::new(move |url: &str| {
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
    factory::set_url_host_to_ascii(None);
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
