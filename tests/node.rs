//! Every conformance case inside node: the core compiled to wasm32 (`wasm-pack test --node`).
#![cfg(target_arch = "wasm32")]

mod common;

use wasm_bindgen_test::*;

#[wasm_bindgen_test]
fn every_conformance_case_passes_in_node() {
    let failed = common::embedded::failures();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
