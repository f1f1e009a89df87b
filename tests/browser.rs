//! Every conformance case inside headless Chromium: the core compiled to wasm32
//! (`wasm-pack test --headless --chrome`).
#![cfg(target_arch = "wasm32")]

mod common;

use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn every_conformance_case_passes_in_the_browser() {
    let cases = common::embedded::CASES;
    assert_eq!(cases.len(), 68);
    let parsed = cases
        .iter()
        .map(|(name, json)| (*name, serde_json::from_str(json).expect("fixture is JSON")));
    let failed = common::check::failures(parsed);
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
