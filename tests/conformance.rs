//! Every golden case of `tests/fixtures/conformance/` (made by agentscope 2.0.11) through
//! the library API: values and key order equal ignoring `volatile_paths`, the query
//! helpers, and error codes / messages.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::check::failures;
use common::*;

#[test]
fn every_conformance_case_passes() {
    let cases = conformance_cases();
    assert_eq!(cases.len(), 68, "the 68 golden cases are all present");
    let failed = failures(cases.iter().map(|(name, case)| (name.as_str(), case.clone())));
    assert!(
        failed.is_empty(),
        "{} of {} cases failed:\n{}",
        failed.len(),
        cases.len(),
        failed.join("\n")
    );
}

#[test]
fn the_wasm_suites_embed_every_case() {
    let embedded: Vec<&str> = common::embedded::CASES.iter().map(|(name, _)| *name).collect();
    let on_disk: Vec<String> = conformance_cases().into_iter().map(|(name, _)| name).collect();
    assert_eq!(embedded, on_disk);
}

#[test]
fn error_cases_cover_every_kind() {
    let kinds: std::collections::BTreeSet<String> = conformance_cases()
        .iter()
        .filter_map(|(_, c)| c["expected_error"].as_str().map(str::to_owned))
        .collect();
    let want = [
        "invalid_base64",
        "invalid_content",
        "invalid_event",
        "invalid_role",
        "invalid_url",
        "reducer_exception",
        "role_violation",
    ];
    assert_eq!(kinds.into_iter().collect::<Vec<_>>(), want);
}
