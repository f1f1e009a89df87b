//! The conformance cases compiled into the test binary, for the wasm suites (no files
//! there). `tests/conformance.rs` checks that this list matches the folder.

macro_rules! cases {
    ($($name:literal),* $(,)?) => {
        pub const CASES: &[(&str, &str)] = &[$(($name, include_str!(concat!("../fixtures/conformance/", $name, ".json")))),*];
    };
}

cases![
    "construct_content_string",
    "construct_invalid_role",
    "construct_system_with_data",
    "construct_system_with_tool_call",
    "construct_unknown_block_type",
    "construct_user_with_hint",
    "construct_user_with_thinking",
    "construct_user_with_tool_call",
    "construct_user_with_tool_result",
    "custom_events_only",
    "data_block_base64_chunks",
    "data_block_data_then_url",
    "data_block_empty_deltas",
    "data_block_lenient_base64",
    "data_block_url",
    "delta_before_start",
    "delta_unknown_block_id",
    "duplicate_start",
    "event_data_delta_both_sources",
    "event_missing_reply_id",
    "event_tool_result_data_delta_no_source",
    "event_unknown_type",
    "exceed_max_iters",
    "external_execution_full_flow",
    "hint_block_str",
    "ignored_event_types",
    "model_call_usage_accumulation",
    "perf_long_react_session",
    "perf_long_text_stream",
    "react_full_3_iterations",
    "reduce_data_bad_base64",
    "reduce_data_invalid_url",
    "reduce_data_url_then_data_crash",
    "reduce_tool_result_bad_base64_merge",
    "reply_end_error",
    "reply_id_mismatch",
    "reply_start_on_existing_msg",
    "require_user_confirm_allowed",
    "require_user_confirm_denied",
    "text_blocks_interleaved",
    "text_empty_deltas",
    "text_end_with_empty_final_text",
    "text_end_with_final_text",
    "text_many_small_deltas",
    "text_multibyte_split",
    "text_multiple_blocks",
    "text_simple",
    "text_whitespace_and_escapes",
    "thinking_text_interleaved",
    "thinking_then_text",
    "tool_call_empty_input",
    "tool_call_streamed_args",
    "tool_calls_parallel_interleaved",
    "tool_result_data_base64_merge",
    "tool_result_data_url",
    "tool_result_empty_data_chunk",
    "tool_result_empty_str_output_then_text",
    "tool_result_end_metadata_replaced",
    "tool_result_end_without_start",
    "tool_result_mixed_text_data",
    "tool_result_state_denied",
    "tool_result_state_error",
    "tool_result_state_interrupted",
    "tool_result_str_output_then_text",
    "tool_result_text_deltas",
    "tool_result_url_then_data_same_id",
    "user_confirm_result_stale_or_unknown",
    "user_msg_reducer_bypasses_role_check",
];

/// Runs every embedded case; one line per failure.
pub fn failures() -> Vec<String> {
    assert_eq!(CASES.len(), 68, "the 68 golden cases are embedded");
    let parsed = CASES
        .iter()
        .map(|(name, json)| (*name, serde_json::from_str(json).expect("fixture is JSON")));
    super::check::failures(parsed)
}
