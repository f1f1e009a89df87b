//! `agentscope-message`: rebuild AgentScope messages from recorded event streams, and
//! validate stored messages.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use agentscope_message::stream::{StreamError, read_events};
use agentscope_message::{Msg, MsgError, Replay};
use clap::{Parser, Subcommand};

/// Rebuild AgentScope 2.0 messages from event streams, exactly as agentscope's
/// `Msg.append_event` does.
#[derive(Parser)]
#[command(name = "agentscope-message", version, about, long_about = None)]
#[command(after_help = "Examples:\n  \
    agentscope-message replay examples/recordings/c_react_3_tools_2_iters/events.sse\n  \
    curl -N https://host/chat/stream | agentscope-message replay -\n  \
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
    /// The input is JSON Lines (one event per line), a JSON array of events, or an SSE
    /// stream (`data: {event}` frames; comments and heartbeats are ignored); the format is
    /// detected from the first byte and the input is processed as it arrives. Without
    /// --initial the message is opened from the first REPLY_START as the AgentScope
    /// service does (AssistantMsg(id=reply_id, name=name, content=[])); a later
    /// REPLY_START with the same reply_id continues it. On the first bad event it prints
    /// `error[<code>] at event <n>: <message>` to stderr and exits with 1.
    Replay {
        /// Apply the events to this message (wire JSON) instead of opening one.
        #[arg(long, value_name = "MSG.json")]
        initial: Option<PathBuf>,
        /// Print one message per reply_id, in order of first appearance, as a JSON array.
        #[arg(long)]
        all: bool,
        /// The event stream; `-` or nothing reads standard input.
        #[arg(value_name = "FILE|-")]
        file: Option<PathBuf>,
    },
    /// Check that a stored message (wire JSON) is valid: exit 0, or exit 1 and print
    /// `error[<code>]: <message>` with the reference's message text.
    Validate {
        /// The message file; `-` reads standard input.
        #[arg(value_name = "MSG.json")]
        file: PathBuf,
    },
}

fn open(path: Option<&PathBuf>) -> io::Result<Box<dyn BufRead>> {
    match path {
        Some(p) if p.as_os_str() != "-" => Ok(Box::new(BufReader::with_capacity(1 << 16, File::open(p)?))),
        _ => Ok(Box::new(BufReader::with_capacity(1 << 16, io::stdin().lock()))),
    }
}

fn read_msg(path: &PathBuf) -> Result<Msg, String> {
    let mut bytes = Vec::new();
    open(Some(path))
        .and_then(|mut r| r.read_to_end(&mut bytes))
        .map_err(|e| format!("error[io]: {}: {e}", path.display()))?;
    let text = String::from_utf8(bytes).map_err(|_| MsgError::InvalidJson("the file is not UTF-8".into()));
    text.and_then(|text| Msg::from_json(&text))
        .map_err(|e| format!("error[{}]: {e}", e.code()))
}

fn replay(initial: Option<PathBuf>, all: bool, file: Option<PathBuf>) -> Result<String, String> {
    let mut replay = match &initial {
        Some(path) => Replay::with_initial(read_msg(path)?, all),
        None => Replay::new(all),
    };
    let name = file
        .as_ref()
        .map_or_else(|| "-".to_owned(), |p| p.display().to_string());
    let input = open(file.as_ref()).map_err(|e| format!("error[io]: {name}: {e}"))?;
    read_events(input, |json| replay.apply_json(json)).map_err(|e| match &e {
        StreamError::Io(_) => format!("error[io]: {name}: {e}"),
        StreamError::Event { .. } => format!("error[{}] {e}", e.code()),
    })?;
    let messages = replay.into_messages();
    if messages.is_empty() {
        return Err(format!("error[{}]: {}", MsgError::NoReply.code(), MsgError::NoReply));
    }
    let out = if all {
        serde_json::to_string(&messages)
    } else {
        serde_json::to_string(&messages[0])
    };
    out.map_err(|e| format!("error[io]: {e}"))
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Replay { initial, all, file } => replay(initial, all, file).map(Some),
        Command::Validate { file } => read_msg(&file).map(|_| None),
    };
    match result {
        Ok(output) => {
            if let Some(json) = output {
                let mut stdout = io::stdout().lock();
                if writeln!(stdout, "{json}").is_err() {
                    return ExitCode::from(1);
                }
            }
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("{message}");
            ExitCode::from(1)
        }
    }
}
