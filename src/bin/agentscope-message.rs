//! `agentscope-message`: rebuild AgentScope messages from recorded event streams, and
//! validate stored messages.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use agentscope_message::session::DEFAULT_MAX_FRAME_BYTES;
use agentscope_message::{
    BlockMatch, DEFAULT_MAX_BLOCK_BYTES, DEFAULT_MAX_BLOCKS, DEFAULT_MAX_DELTA_BYTES, DEFAULT_MAX_MESSAGE_BYTES,
    DEFAULT_MAX_SESSION_BYTES, Msg, MsgError, Session, SessionError, SessionOptions, ToolCallMatch,
};
use clap::{Parser, Subcommand, ValueEnum};

/// Rebuild AgentScope 2.0 messages from event streams, exactly as agentscope's
/// `Msg.append_event` does.
#[derive(Parser)]
#[command(name = "agentscope-message", version, about, long_about = None)]
#[command(after_help = "Examples:\n  \
    agentscope-message replay examples/recordings/c_react_3_tools_2_iters/events.sse\n  \
    curl -N http://127.0.0.1:8787/api/stream/c_react_3_tools_2_iters | agentscope-message replay --diagnostics -\n  \
    agentscope-message replay --all examples/recordings/l_two_replies_same_session/events.jsonl\n  \
    agentscope-message validate stored_msg.json")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Replay an event stream into the final message and print it as compact wire JSON.
    ///
    /// The input is SSE (`data: {event}` frames), JSON Lines (one event per line) or a JSON
    /// array of events, detected from the first bytes, and processed as it arrives (e.g.
    /// `curl -N` of a live stream). SSE frames named other than `message` (`event: ping`)
    /// and keep-alives are not events; a last frame without its blank line is applied.
    /// Without --initial the message is opened from the first REPLY_START as the
    /// AgentScope service does (AssistantMsg(id=reply_id, name=name, content=[])); a later
    /// REPLY_START with the same reply_id continues it. On the first bad event it prints
    /// `error[<code>] at event <n> (id <event id>): <message>` to stderr (the id when the
    /// event had one) and exits with 1.
    Replay {
        /// Apply the events to this message (wire JSON) instead of opening one; without
        /// --all, events of other replies are skipped (foreign_reply), as the reference's
        /// Msg.append_event on that message skips them.
        #[arg(long, value_name = "MSG.json")]
        initial: Option<PathBuf>,
        /// Print one message per reply_id, in order of first appearance, as a JSON array.
        #[arg(long)]
        all: bool,
        /// Refuse (exit 1) what is skipped by default: deltas for blocks never started,
        /// repeated block starts, events after REPLY_END, events of unopened replies,
        /// unknown event types.
        #[arg(long)]
        strict: bool,
        /// Apply an event whose id was already applied only once.
        #[arg(long)]
        dedup: bool,
        /// Skip a frame that is not JSON or not an AgentScope event, with a diagnostic
        /// (invalid_json, invalid_event), instead of refusing it (exit 1).
        #[arg(long)]
        skip_invalid: bool,
        /// Which tool call a repeated tool-call id names.
        #[arg(long, value_enum, default_value_t = Match::First)]
        tool_call_match: Match,
        /// Which text, thinking or data block a repeated block id names (newest: a start
        /// after that block's end opens a new one, for producers that reuse ids).
        #[arg(long, value_enum, default_value_t = Match::First)]
        block_match: Match,
        /// The longest frame (SSE data, JSON Lines line, JSON array element) in bytes (0: no
        /// cap); a longer one is refused (error[limit_exceeded], exit 1) without being held in
        /// memory.
        #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_FRAME_BYTES)]
        max_frame_bytes: usize,
        #[command(flatten)]
        caps: Caps,
        /// Print what was skipped or suspicious to stderr, one JSON object per line.
        #[arg(long)]
        diagnostics: bool,
        /// The event stream; `-` or nothing reads standard input.
        #[arg(value_name = "FILE|-")]
        file: Option<PathBuf>,
    },
    /// Check that a stored message (wire JSON) is valid: exit 0, or exit 1 and print
    /// `error[<code>]: <message>` (the code names the reference's error kind).
    Validate {
        /// The message file; `-` reads standard input.
        #[arg(value_name = "MSG.json")]
        file: PathBuf,
    },
}

/// `--tool-call-match`, `--block-match`: the first block with the id (the reference) or
/// the newest.
#[derive(Clone, Copy, ValueEnum)]
enum Match {
    First,
    Newest,
}

fn open(path: Option<&PathBuf>) -> io::Result<Box<dyn Read>> {
    match path {
        Some(p) if p.as_os_str() != "-" => Ok(Box::new(File::open(p)?)),
        _ => Ok(Box::new(io::stdin().lock())),
    }
}

/// The largest message file `validate` and `replay --initial` read (a stored message, not
/// a stream: 1 GiB).
const MAX_MSG_BYTES: u64 = 1 << 30;

fn read_msg(path: &PathBuf) -> Result<Msg, String> {
    let mut bytes = Vec::new();
    let shown = printable(&path.display().to_string());
    open(Some(path))
        .and_then(|r| r.take(MAX_MSG_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("error[io]: {shown}: {e}"))?;
    let text = if bytes.len() as u64 > MAX_MSG_BYTES {
        Err(MsgError::LimitExceeded(format!(
            "{shown} is longer than {MAX_MSG_BYTES} bytes"
        )))
    } else {
        String::from_utf8(bytes).map_err(|_| MsgError::InvalidJson("the file is not UTF-8".into()))
    };
    // a byte-order mark is dropped, as replay does
    text.and_then(|text| Msg::from_json(text.strip_prefix('\u{FEFF}').unwrap_or(&text)))
        .map_err(|e| format!("error[{}]: {}", e.code(), printable(&e.to_string())))
}

struct ReplayArgs {
    initial: Option<PathBuf>,
    all: bool,
    options: SessionOptions,
    diagnostics: bool,
    file: Option<PathBuf>,
}

/// Printable text on one line: control characters (line ends included) and the Unicode
/// bidirectional controls of the input are escaped, so input cannot forge output lines
/// or reorder what a terminal shows.
fn printable(text: &str) -> String {
    // bidi controls, and the line and paragraph separators (a terminal may break there)
    let bidi =
        |c: char| matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() || bidi(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

fn print_diagnostics(session: &mut Session) {
    let mut stderr = io::stderr().lock();
    for d in session.take_diagnostics() {
        let _ = writeln!(stderr, "{}", serde_json::to_string(&d).unwrap_or_default());
    }
}

fn replay(args: ReplayArgs) -> Result<String, String> {
    let mut session = Session::new(args.options);
    if let Some(path) = &args.initial {
        let msg = read_msg(path)?;
        // one message, as the reference's append_event: other replies' events are foreign
        if !args.all {
            session.focus(&msg.id);
        }
        session.insert(msg);
    }
    let name = args
        .file
        .as_ref()
        .map_or_else(|| "-".to_owned(), |p| printable(&p.display().to_string()));
    let mut input = open(args.file.as_ref()).map_err(|e| format!("error[io]: {name}: {e}"))?;
    let failed = |e: SessionError| format!("error[{}] {}", e.code(), printable(&e.to_string()));
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(format!("error[io]: {name}: {e}")),
        };
        let fed = session.feed(&buf[..n]);
        if args.diagnostics {
            print_diagnostics(&mut session);
        }
        fed.map_err(failed)?;
    }
    let ended = session.end();
    if args.diagnostics {
        print_diagnostics(&mut session);
    }
    ended.map_err(failed)?;
    if session.is_empty() {
        return Err(format!("error[{}]: {}", MsgError::NoReply.code(), MsgError::NoReply));
    }
    let messages = session.into_messages();
    Ok(if args.all {
        agentscope_message::wire::to_string(&messages)
    } else {
        agentscope_message::wire::to_string(&messages[0])
    })
}

/// The caps on what events may add (0: no cap); an event past one is refused
/// (error[limit_exceeded], exit 1) before anything of it is copied in.
#[derive(clap::Args)]
struct Caps {
    /// The payload of one delta event (its `delta`, `data` or `url`), in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_DELTA_BYTES)]
    max_delta_bytes: usize,
    /// What one block takes in, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_BLOCK_BYTES)]
    max_block_bytes: usize,
    /// What one message takes in, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_MESSAGE_BYTES)]
    max_message_bytes: usize,
    /// The blocks of one message.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_BLOCKS)]
    max_blocks: usize,
    /// What all the messages take in together, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_SESSION_BYTES)]
    max_session_bytes: usize,
}

/// Writes `text` and a newline to stdout: `Ok` when written or when the reader stopped
/// reading (a broken pipe: `| head` got what it wanted), else the error.
fn write_stdout(text: &str) -> io::Result<()> {
    let mut stdout = io::stdout().lock();
    match writeln!(stdout, "{text}").and_then(|()| stdout.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(e),
        _ => Ok(()),
    }
}

/// Writes `text` and a newline to stderr; a stderr that cannot be written is ignored (the
/// exit code still says what happened), never a panic as `eprintln!` would be.
fn write_stderr(text: &str) {
    let _ = writeln!(io::stderr().lock(), "{text}");
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() => {
            write_stderr(e.render().to_string().trim_end());
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
        // --help, --version: on stdout, and a stdout that cannot take them is an error
        Err(e) => {
            return match write_stdout(e.render().to_string().trim_end()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    write_stderr(&format!("error: writing the output: {e}"));
                    ExitCode::from(1)
                }
            };
        }
    };
    let result = match cli.command {
        Command::Replay {
            initial,
            all,
            strict,
            dedup,
            skip_invalid,
            tool_call_match,
            block_match,
            max_frame_bytes,
            caps,
            diagnostics,
            file,
        } => {
            let options = SessionOptions {
                strict,
                dedup,
                tool_call_match: match tool_call_match {
                    Match::First => ToolCallMatch::First,
                    Match::Newest => ToolCallMatch::Newest,
                },
                block_match: match block_match {
                    Match::First => BlockMatch::First,
                    Match::Newest => BlockMatch::Newest,
                },
                max_frame_bytes,
                max_delta_bytes: caps.max_delta_bytes,
                max_block_bytes: caps.max_block_bytes,
                max_message_bytes: caps.max_message_bytes,
                max_blocks: caps.max_blocks,
                max_session_bytes: caps.max_session_bytes,
                skip_invalid,
                keep_events: false,
            };
            replay(ReplayArgs {
                initial,
                all,
                options,
                diagnostics,
                file,
            })
            .map(Some)
        }
        Command::Validate { file } => read_msg(&file).map(|_| None),
    };
    match result {
        Ok(output) => {
            if let Some(json) = output
                && let Err(e) = write_stdout(&json)
            {
                write_stderr(&format!("error: writing the output: {e}"));
                return ExitCode::from(1);
            }
            ExitCode::SUCCESS
        }
        Err(message) => {
            write_stderr(&message);
            ExitCode::from(1)
        }
    }
}
