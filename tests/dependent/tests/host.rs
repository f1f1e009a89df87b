//! What a host application keeps when it adds agentscope-message: its own
//! `url` crate's international domain names, its own `serde_json` map order and number
//! type; and the library works in it.

use serde_json::Value;

/// The `url` crate's IDNA, with the Unicode tables the host's `idna_adapter` brings (the
/// library pins none).
#[test]
fn the_hosts_url_crate_keeps_international_domain_names() {
    let url = url::Url::parse("http://münchen.de/").expect("an international domain name");
    assert_eq!(url.host_str(), Some("xn--mnchen-3ya.de"));
    let url = url::Url::parse("https://bücher.de/x").expect("an international domain name");
    assert_eq!(url.as_str(), "https://xn--bcher-kva.de/x");
}

/// `serde_json::Map` sorted by key (no `preserve_order` from the library).
#[test]
fn the_hosts_serde_json_sorts_its_maps() {
    let value: Value = serde_json::from_str(r#"{"b":1,"a":2}"#).expect("JSON");
    assert_eq!(serde_json::to_string(&value).expect("JSON"), r#"{"a":2,"b":1}"#);
}

/// A JSON number read as an f64 (no `arbitrary_precision` from the library).
#[test]
fn the_hosts_serde_json_reads_numbers_as_f64() {
    let value: Value = serde_json::from_str("1e2").expect("JSON");
    assert_eq!(value.as_f64(), Some(100.0));
    assert_eq!(serde_json::to_string(&value).expect("JSON"), "100.0");
}

/// The library's URL normalisation in the host: the `url` crate's own IDNA.
#[test]
fn the_library_normalises_international_domain_names_in_the_host() {
    let normalized = |url| agentscope_message::normalize_url(url).map_err(|e| e.to_string());
    assert_eq!(
        normalized("http://münchen.de/"),
        Ok("http://xn--mnchen-3ya.de/".to_owned())
    );
    assert_eq!(
        normalized("https://bücher.de/x"),
        Ok("https://xn--bcher-kva.de/x".to_owned())
    );
}

/// The library's own free-form values in the host: a message's metadata keeps the
/// reference's key order and digits (Python's `json`), with the host's serde_json as it is,
/// and a message deserialises inside the host's own types.
#[test]
fn the_library_keeps_key_order_and_digits_in_the_host() {
    let json = r#"{"name":"Friday","content":[],"role":"assistant","id":"m1","metadata":{"b":1,"a":123456789012345678901234567890,"c":1.5e-7},"created_at":"T","usage":null,"finished_at":null,"finished_reason":null,"structured_output":null,"error":null}"#;
    let msg = agentscope_message::Msg::from_json(json).expect("a message");
    assert_eq!(msg.to_json(), json.replace("1.5e-7", "1.5e-07"));
    assert_eq!(serde_json::to_string(&msg).expect("JSON"), msg.to_json());

    #[derive(serde::Deserialize)]
    struct Row {
        msg: agentscope_message::Msg,
    }
    let row: Row = serde_json::from_str(&format!(r#"{{"msg": {json}}}"#)).expect("a row");
    assert_eq!(row.msg.to_json(), msg.to_json());
}
