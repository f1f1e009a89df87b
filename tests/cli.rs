//! The conformance cases through the `agentscope-message` CLI (events framed as JSON
//! Lines, a JSON array and SSE in turn), and the CLI's error reporting.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::path::Path;

use common::*;
use serde_json::Value;

fn frame(events: &[Value], style: usize) -> String {
    match style % 3 {
        0 => events.iter().map(|e| format!("{e}\n")).collect(),
        1 => serde_json::to_string_pretty(events).expect("json"),
        _ => {
            let frames: String = events.iter().map(|e| format!("data: {e}\n\n: heartbeat\n\n")).collect();
            format!(": stream start\nretry: 1000\n\n{frames}")
        }
    }
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write temp file");
    path.to_string_lossy().into_owned()
}

#[test]
fn every_conformance_case_through_the_cli() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let mut failures = Vec::new();
    for (i, (name, case)) in conformance_cases().iter().enumerate() {
        let events = case["events"].as_array().cloned().unwrap_or_default();
        let stream = write(tmp.path(), &format!("{name}.events"), &frame(&events, i));
        let mut args = vec!["replay".to_owned()];
        if !case["initial"].is_null() {
            args.push("--initial".into());
            args.push(write(
                tmp.path(),
                &format!("{name}.msg.json"),
                &case["initial"].to_string(),
            ));
        }
        args.push(stream);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        match case.get("expected_error").and_then(Value::as_str) {
            None => {
                let out = cli(&args, None);
                if !out.status.success() {
                    failures.push(format!(
                        "{name}: exit {:?}: {}",
                        out.status,
                        String::from_utf8_lossy(&out.stderr)
                    ));
                    continue;
                }
                let mut actual: Value = serde_json::from_slice(&out.stdout).expect("stdout JSON");
                let mut expected = case["expected"].clone();
                let paths = volatile_paths(case);
                null_paths(&mut actual, &paths);
                null_paths(&mut expected, &paths);
                failures.extend(json_diff(&actual, &expected, name));
            }
            Some(kind) => {
                // a session skips an unknown event type (a newer server's event) unless
                // it is strict; AgentEvent parsing itself rejects it (tests/conformance.rs)
                let unknown_type = *name == "event_unknown_type";
                let code = if unknown_type {
                    "unknown_event_type"
                } else {
                    our_code(kind)
                };
                let out = if case["kind"] == "construct" {
                    cli(&["validate", "-"], Some(case["initial"].to_string().as_bytes()))
                } else if unknown_type {
                    cli(&["replay", "--strict", args[args.len() - 1]], None)
                } else {
                    cli(&args[..1].iter().chain(args.last()).copied().collect::<Vec<_>>(), None)
                };
                let stderr = String::from_utf8_lossy(&out.stderr);
                let last_id = events.last().and_then(|e| e["id"].as_str());
                let want = match (case["kind"].as_str(), last_id) {
                    (Some("construct"), _) => format!("error[{code}]: "),
                    (_, Some(id)) => format!("error[{code}] at event {} (id {id}): ", events.len()),
                    (_, None) => format!("error[{code}] at event {}: ", events.len()),
                };
                if out.status.code() != Some(1) || !stderr.starts_with(&want) || !out.stdout.is_empty() {
                    failures.push(format!(
                        "{name}: exit {:?}, stderr {stderr:?}, want {want:?}",
                        out.status.code()
                    ));
                }
                if let Some(text) = case.get("expected_error_message").and_then(Value::as_str)
                    && stderr.trim_end() != format!("{want}{text}")
                {
                    failures.push(format!("{name}: stderr {stderr:?}, want message {text:?}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn reads_standard_input_and_reports_the_first_bad_event() {
    let ok = r#"{"type":"REPLY_START","session_id":"s","reply_id":"r","name":"Friday"}
{"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"t"}
{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"t","delta":"hi"}
"#;
    let out = cli(&["replay", "-"], Some(ok.as_bytes()));
    assert!(out.status.success());
    let msg: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(msg["content"][0]["text"], "hi");
    assert_eq!(msg["name"], "Friday");
    assert_eq!(msg["id"], "r");

    let bad = format!("{ok}{{\"type\":\"TEXT_BLOCK_DELTA\",\"reply_id\":\"r\",\"block_id\":\"t\",\"delta\":5}}\n");
    let out = cli(&["replay"], Some(bad.as_bytes()));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        "error[invalid_event] at event 4: TEXT_BLOCK_DELTA: field `delta`: invalid type: integer `5`, expected a string"
    );

    let out = cli(&["replay"], Some(b"{\"type\": \"REPLY_START\",\n"));
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error[invalid_json] at event 1: "));

    let out = cli(&["replay"], Some(b"[{\"type\":\"CUSTOM\",\"name\":\"x\"}, nope]"));
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error[invalid_json] at event 2: "));
}

#[test]
fn skip_invalid_makes_a_bad_frame_a_diagnostic() {
    let stream = concat!(
        r#"{"type":"REPLY_START","session_id":"s","reply_id":"r","name":"Friday"}"#,
        "\n{bad\n",
        r#"{"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"t"}"#,
        "\n",
        r#"{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"t","delta":5}"#,
        "\n",
        r#"{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"t","delta":"hi"}"#,
        "\n"
    );
    let out = cli(&["replay", "-"], Some(stream.as_bytes()));
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error[invalid_json] at event 2: "));

    let out = cli(
        &["replay", "--skip-invalid", "--diagnostics", "-"],
        Some(stream.as_bytes()),
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let msg: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(msg["content"][0]["text"], "hi");
    let codes: Vec<(u64, String)> = String::from_utf8_lossy(&out.stderr)
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).expect("a diagnostic"))
        .map(|d| {
            (
                d["index"].as_u64().expect("index"),
                d["code"].as_str().expect("code").to_owned(),
            )
        })
        .collect();
    assert_eq!(codes, [(2, "invalid_json".to_owned()), (4, "invalid_event".to_owned())]);
}

#[test]
fn a_stream_without_reply_start_is_an_error() {
    let out = cli(&["replay"], Some(b""));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        "error[no_reply]: no REPLY_START in the stream and no initial message to apply events to"
    );
}

#[test]
fn validate_accepts_a_stored_message() {
    let msg = common::root().join("examples/recordings/c_react_3_tools_2_iters/final_msg.json");
    let out = cli(&["validate", &msg.to_string_lossy()], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = cli(
        &["validate", "-"],
        Some(b"{\"name\": \"n\", \"role\": \"tool\", \"content\": []}"),
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        "error[invalid_role]: Input should be 'user', 'assistant' or 'system'"
    );
}

#[test]
fn validate_escapes_the_input_it_quotes() {
    // a value quoted in the message cannot forge another output line or a terminal sequence
    let forged = "{\"name\": \"a\", \"role\": \"user\", \"content\": [], \"finished_reason\": \"x\\nerror[ok]: forged\\u001b[2K\"}";
    let out = cli(&["validate", "-"], Some(forged.as_bytes()));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("error[invalid_msg]: ") && stderr.contains("x\\u{a}error[ok]: forged\\u{1b}[2K"),
        "{stderr}"
    );
}

#[test]
fn replay_initial_without_all_skips_other_replies_events_as_the_reference_does() {
    // the reference applies every event to the one initial message, whose append_event
    // skips other replies' events: a bad event of another reply is no error (exit 0)
    let tmp = tempfile::tempdir().expect("temp dir");
    let initial = write(
        tmp.path(),
        "msg.json",
        r#"{"name":"n","content":[],"role":"assistant","id":"r"}"#,
    );
    let events = concat!(
        r#"{"type":"REPLY_START","session_id":"s","reply_id":"x","name":"n"}"#,
        "\n",
        r#"{"type":"DATA_BLOCK_START","reply_id":"x","block_id":"d","media_type":"image/png"}"#,
        "\n",
        r#"{"type":"DATA_BLOCK_DELTA","reply_id":"x","block_id":"d","media_type":"image/png","data":"A"}"#,
        "\n",
        r#"{"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"t"}"#,
        "\n",
        r#"{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"t","delta":"hi"}"#,
        "\n",
    );
    let out = cli(
        &["replay", "--initial", &initial, "--diagnostics", "-"],
        Some(events.as_bytes()),
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let msg: Value = serde_json::from_slice(&out.stdout).expect("stdout JSON");
    assert_eq!(msg["id"], "r");
    assert_eq!(msg["content"][0]["text"], "hi");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("\"code\":\"foreign_reply\"").count(), 3, "{stderr}");
    // with --all every reply is opened, and the bad base64 of reply x is an error
    let out = cli(
        &["replay", "--initial", &initial, "--all", "-"],
        Some(events.as_bytes()),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error[invalid_base64]"));
}

#[test]
fn the_caps_are_flags() {
    let stream = r#"{"type":"REPLY_START","session_id":"s","reply_id":"r","name":"Friday"}
{"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"t"}
{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"t","delta":"hello"}
"#;
    for (flag, value, option) in [
        ("--max-delta-bytes", "4", "max_delta_bytes"),
        // the start takes in its wire JSON (154 bytes, with the id and time made for it);
        // the message, its own wire JSON when REPLY_START opens it (208 bytes)
        ("--max-block-bytes", "157", "max_block_bytes"),
        ("--max-message-bytes", "365", "max_message_bytes"),
        ("--max-session-bytes", "365", "max_session_bytes"),
    ] {
        let out = cli(&["replay", flag, value], Some(stream.as_bytes()));
        assert_eq!(out.status.code(), Some(1), "{flag}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.starts_with("error[limit_exceeded] at event 3: "),
            "{flag}: {stderr}"
        );
        assert!(stderr.contains(option), "{flag}: {stderr}");
        // 0 is no cap
        assert!(cli(&["replay", flag, "0"], Some(stream.as_bytes())).status.success());
    }
    let out = cli(&["replay", "--max-blocks", "0"], Some(stream.as_bytes()));
    assert!(out.status.success());
    let two = format!(
        "{stream}{}\n",
        r#"{"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"u"}"#
    );
    let out = cli(&["replay", "--max-blocks", "1"], Some(two.as_bytes()));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("error[limit_exceeded] at event 4: the message would have 2 blocks"),
        "{stderr}"
    );
}

#[test]
fn block_match_is_a_flag() {
    // AgentScope-Java's reused text block id around a tool call (agentscope-java#1929)
    let stream = r#"{"type":"REPLY_START","session_id":"s","reply_id":"r","name":"Friday"}
{"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"text"}
{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"text","delta":"Let me search."}
{"type":"TEXT_BLOCK_END","reply_id":"r","block_id":"text","created_at":"T1"}
{"type":"TOOL_CALL_START","reply_id":"r","tool_call_id":"c","tool_call_name":"search"}
{"type":"TOOL_CALL_END","reply_id":"r","tool_call_id":"c","created_at":"T2"}
{"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"text"}
{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"text","delta":"Found it."}
{"type":"TEXT_BLOCK_END","reply_id":"r","block_id":"text","created_at":"T3"}
"#;
    let texts = |args: &[&str]| -> (Vec<(Value, Value)>, String) {
        let out = cli(args, Some(stream.as_bytes()));
        assert!(out.status.success(), "{args:?}");
        let msg: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let blocks = msg["content"].as_array().expect("content").iter();
        let texts = (blocks.filter(|b| b["type"] == "text"))
            .map(|b| (b["text"].clone(), b["finished_at"].clone()))
            .collect();
        (texts, String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (first, stderr) = texts(&["replay", "--diagnostics", "-"]);
    assert_eq!(
        first,
        [
            ("Let me search.Found it.".into(), "T3".into()),
            ("".into(), Value::Null)
        ]
    );
    let codes: Vec<Value> = (stderr.lines())
        .map(|l| serde_json::from_str::<Value>(l).expect("a diagnostic")["code"].clone())
        .collect();
    assert_eq!(codes, ["duplicate_block", "after_block_end"]);
    let (newest, stderr) = texts(&["replay", "--diagnostics", "--block-match", "newest", "-"]);
    assert_eq!(
        newest,
        [
            ("Let me search.".into(), "T1".into()),
            ("Found it.".into(), "T3".into())
        ]
    );
    assert_eq!(stderr, "");
    assert!(
        cli(
            &["replay", "--strict", "--block-match", "newest", "-"],
            Some(stream.as_bytes())
        )
        .status
        .success()
    );
    let out = cli(&["replay", "--block-match", "last", "-"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--block-match"));
}

#[test]
fn diagnostics_print_a_custom_event_with_its_name_and_value() {
    let stream = concat!(
        r#"{"type":"REPLY_START","session_id":"s","reply_id":"r","name":"Friday"}"#,
        "\n",
        r#"{"id":"c1","type":"CUSTOM","name":"state_updated","value":{"tasks_context":{"tasks":[]}}}"#,
        "\n",
    );
    let out = cli(&["replay", "--diagnostics", "-"], Some(stream.as_bytes()));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        concat!(
            r#"{"index":2,"code":"custom","message":"CUSTOM event \"state_updated\"","event_type":"CUSTOM","#,
            r#""event_id":"c1","reply_id":null,"sse_id":null,"name":"state_updated","value":{"tasks_context":{"tasks":[]}}}"#,
            "\n"
        )
    );
}

/// `replay` of one `REPLY_START` with its output to `stdout` (`None`: a pipe whose reading
/// end is closed before the CLI has read its input, so its write fails).
fn replay_into(stdout: Option<std::fs::File>) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let closed = stdout.is_none();
    let mut child = Command::new(env!("CARGO_BIN_EXE_agentscope-message"))
        .arg("replay")
        .stdin(Stdio::piped())
        .stdout(stdout.map_or_else(Stdio::piped, Stdio::from))
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn the CLI");
    if closed {
        drop(child.stdout.take());
    }
    let events = br#"{"type":"REPLY_START","session_id":"s","reply_id":"r","name":"Friday"}"#;
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(events)
        .expect("write the events");
    child.wait_with_output().expect("the CLI ends")
}

#[test]
fn a_reader_that_stops_early_is_no_error_and_a_full_disk_is_one() {
    let out = replay_into(None);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");

    if Path::new("/dev/full").exists() {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let out = replay_into(Some(full));
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(
            String::from_utf8_lossy(&out.stderr).trim_end(),
            "error: writing the output: No space left on device (os error 28)"
        );
    }
}

/// Runs the CLI with `args`, its stdout and stderr each `/dev/full` or a pipe.
fn run_full(args: &[&str], stdout_full: bool, stderr_full: bool) -> std::process::Output {
    use std::process::{Command, Stdio};
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full")
    };
    Command::new(env!("CARGO_BIN_EXE_agentscope-message"))
        .args(args)
        .stdout(if stdout_full {
            Stdio::from(full())
        } else {
            Stdio::piped()
        })
        .stderr(if stderr_full {
            Stdio::from(full())
        } else {
            Stdio::piped()
        })
        .output()
        .expect("run the CLI")
}

#[test]
fn a_stderr_that_cannot_be_written_is_no_panic_and_help_on_a_full_disk_is_an_error() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    // the error message cannot be written: still exit 1 (a panic would be 101)
    let out = run_full(&["replay", "/no/such/file.sse"], false, true);
    assert_eq!(out.status.code(), Some(1));
    // --help and --version go to stdout; a stdout that cannot take them is exit 1, said on stderr
    for flag in ["--help", "--version"] {
        let out = run_full(&[flag], true, false);
        assert_eq!(out.status.code(), Some(1), "{flag}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr).trim_end(),
            "error: writing the output: No space left on device (os error 28)"
        );
        let out = run_full(&[flag], false, false);
        assert_eq!(out.status.code(), Some(0), "{flag}");
        assert!(String::from_utf8_lossy(&out.stdout).contains("agentscope-message"));
    }
    // a usage error still says so on stderr, exit 2 (clap's)
    let out = run_full(&["no-such-command"], false, false);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: unrecognized subcommand 'no-such-command'"));
    // and with stderr full, still 2, no panic
    assert_eq!(run_full(&["no-such-command"], false, true).status.code(), Some(2));
}
