//! Every conformance case and session case inside headless Chromium: the core compiled to wasm32
//! as the .wasm ships it, with its binding and the table-free `idna_adapter` (`cargo test
//! --manifest-path wasm/Cargo.toml --target wasm32-unknown-unknown --test browser` with
//! wasm-bindgen-test-runner as the target's runner and `CHROMEDRIVER` set: scripts/test).
#![cfg(target_arch = "wasm32")]

mod common;

use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn every_conformance_case_passes_in_the_browser() {
    let failed = common::embedded::failures();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[wasm_bindgen_test]
fn every_session_case_passes() {
    let failed = common::session_cases::failures();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[wasm_bindgen_test]
fn random_chunking_of_every_recording_gives_the_same_messages() {
    let failed = common::session_cases::chunking_failures(3, 0x5eed);
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
