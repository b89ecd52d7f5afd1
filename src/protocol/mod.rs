//! The text protocol (GTP framing) of `docs/PROTOCOL.md`: reading lines, comments, ids, and
//! formatting replies. The commands themselves are in [`commands`]; they call the
//! [`Session`], which holds the game logic.
//!
//! ```
//! use hnefi::protocol::Engine;
//! let mut engine = Engine::new(hnefi::session::Session::new());
//! assert_eq!(engine.handle_line(b"7 play attacker h1 h3").as_deref(), Some("=7\n\n"));
//! assert_eq!(engine.handle_line(b"play defender f8 i8 # a comment").as_deref(), Some("=\n\n"));
//! assert_eq!(engine.handle_line(b"  # only a comment"), None);
//! ```

pub mod colour;
pub mod commands;
pub mod compat03;
pub mod otep;
mod reader;
mod stream;
pub(crate) mod suggest;
pub mod terminal;

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::time::Instant;

use reader::InputState;

use crate::session::Session;

/// The longest line accepted, in bytes, comments excluded.
pub const MAX_LINE: usize = 64 * 1024;

/// One input line as read: its bytes before any `#`, without the line end, and whether
/// that part was longer than [`MAX_LINE`] (then only the first bytes are kept).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawLine {
    /// The bytes before the comment (at most [`MAX_LINE`] + 1 of them).
    pub bytes: Vec<u8>,
    /// True when the line was too long.
    pub too_long: bool,
}

impl RawLine {
    /// Builds a line from bytes without a line end: strips the comment and checks the
    /// length.
    pub(crate) fn from_bytes(line: &[u8]) -> RawLine {
        let mut raw = RawLine::default();
        let end = line.iter().position(|&b| b == b'#').unwrap_or(line.len());
        raw.push(line.get(..end).unwrap_or_default());
        raw
    }

    fn clear(&mut self) {
        self.bytes.clear();
        self.too_long = false;
    }

    /// Appends bytes that precede the comment, keeping at most [`MAX_LINE`] + 1 of them.
    fn push(&mut self, chunk: &[u8]) {
        let room = (MAX_LINE + 1).saturating_sub(self.bytes.len());
        let take = chunk.len().min(room);
        self.bytes
            .extend_from_slice(chunk.get(..take).unwrap_or_default());
        if self.bytes.len() > MAX_LINE {
            self.too_long = true;
        }
    }
}

/// Reads one line into `line` without ever holding more than [`MAX_LINE`] + 1 bytes of it:
/// the comment and the end of an overlong line are skipped as they stream by. Returns
/// false at end of input (when no byte was read).
pub fn read_line<R: BufRead>(input: &mut R, line: &mut RawLine) -> io::Result<bool> {
    line.clear();
    let mut in_comment = false;
    let mut read_any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(read_any);
        }
        read_any = true;
        let newline = chunk.iter().position(|&b| b == b'\n');
        let part = newline.map_or(chunk, |n| chunk.get(..n).unwrap_or_default());
        if !in_comment {
            match part.iter().position(|&b| b == b'#') {
                Some(h) => {
                    line.push(part.get(..h).unwrap_or_default());
                    in_comment = true;
                }
                None => line.push(part),
            }
        }
        let used = newline.map_or(chunk.len(), |n| n + 1);
        input.consume(used);
        if newline.is_some() {
            return Ok(true);
        }
    }
}

/// A line split into its parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Parsed {
    /// Nothing but spaces: no reply.
    Empty,
    /// A command with its optional id and its arguments.
    Command {
        /// The id, if the line started with one.
        id: Option<u64>,
        /// The command name.
        name: String,
        /// The arguments.
        args: Vec<String>,
    },
    /// A line that cannot be read, with the reply's id and message.
    Invalid {
        /// The id, if it could be read.
        id: Option<u64>,
        /// What is wrong.
        message: String,
    },
}

/// Checks and splits one line (comment already removed).
pub(crate) fn parse_line(line: &RawLine) -> Parsed {
    let invalid = |message: String| Parsed::Invalid { id: None, message };
    if line.too_long {
        return invalid(format!("line too long: more than {MAX_LINE} bytes"));
    }
    let bytes = line.bytes.strip_suffix(b"\r").unwrap_or(&line.bytes);
    let Ok(text) = std::str::from_utf8(bytes) else {
        return invalid("invalid UTF-8 in the line".into());
    };
    if let Some(c) = text.chars().find(|&c| c.is_control() && c != '\t') {
        return invalid(format!(
            "control character U+{:04X} in the line",
            u32::from(c)
        ));
    }
    let mut words = text.split([' ', '\t']).filter(|w| !w.is_empty());
    let Some(first) = words.next() else {
        return Parsed::Empty;
    };
    let (id, name) = if first.bytes().all(|b| b.is_ascii_digit()) {
        let Ok(id) = first.parse::<u64>() else {
            return invalid(format!(
                "invalid id '{}': expected a whole number up to {}",
                crate::core::excerpt::excerpt(first),
                u64::MAX
            ));
        };
        match words.next() {
            Some(name) => (Some(id), name),
            None => {
                return Parsed::Invalid {
                    id: Some(id),
                    message: "missing command after the id".into(),
                };
            }
        }
    } else {
        (None, first)
    };
    Parsed::Command {
        id,
        name: name.to_string(),
        args: words.map(str::to_string).collect(),
    }
}

/// Formats a reply: `=ID result` or `?ID message`, then the empty line.
pub(crate) fn format_reply(id: Option<u64>, result: &Result<String, String>) -> String {
    let (mark, text) = match result {
        Ok(text) => ('=', text.as_str()),
        Err(message) => ('?', message.as_str()),
    };
    let id = id.map(|n| n.to_string()).unwrap_or_default();
    if text.is_empty() || text.starts_with('\n') {
        // A reply that starts with a line break (a diagram) starts on the next line.
        format!("{mark}{id}{text}\n\n")
    } else {
        format!("{mark}{id} {text}\n\n")
    }
}

/// The dialect an engine speaks: its command table and formats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dialect {
    /// hnefi's own protocol (docs/PROTOCOL.md).
    #[default]
    Hnefi,
    /// The protocol of the hnefatafl-copenhagen crate's 0.3.1 release ([`compat03`]).
    Compat03,
}

impl Dialect {
    /// The dialect called `name` (a value of [`options::COMPAT`](crate::options::COMPAT)):
    /// `0.3` (or `0.3.1`) or `off` (hnefi's own).
    pub fn from_name(name: &str) -> Result<Dialect, String> {
        match name {
            "0.3.1" => Ok(Dialect::Compat03),
            _ => match crate::options::COMPAT.parse(name) {
                Ok(crate::options::Value::Choice("0.3")) => Ok(Dialect::Compat03),
                Ok(_) => Ok(Dialect::Hnefi),
                Err(e) => Err(e.to_string()),
            },
        }
    }

    /// The reply to an unknown command: for a name another protocol uses, the name of
    /// this dialect's command; for a near miss (`PLAY`, `plya`), the nearest names.
    fn unknown(self, name: &str) -> String {
        match self.hint(name) {
            Some(hint) => format!("unknown command: {hint}"),
            None => "unknown command".to_string(),
        }
    }

    /// The hint for a name that is not a command of this dialect ([`suggest::hint`]).
    fn hint(self, name: &str) -> Option<String> {
        let (table, foreign) = match self {
            Dialect::Hnefi => (commands::COMMANDS, commands::FOREIGN_NAMES),
            Dialect::Compat03 => (
                compat03::commands::COMMANDS,
                compat03::commands::FOREIGN_NAMES,
            ),
        };
        suggest::hint(table.iter().map(|c| c.name), foreign, name)
    }

    fn find(self, name: &str) -> Option<&'static commands::Command> {
        match self {
            Dialect::Hnefi => commands::find(name),
            Dialect::Compat03 => compat03::commands::find(name),
        }
    }
}

/// The protocol engine: a session and the command table, line in, reply out.
#[derive(Debug)]
pub struct Engine {
    session: Session,
    dialect: Dialect,
    quit: bool,
    /// What the input thread signals ([`Engine::run`]); without one, no input will come.
    input: Arc<InputState>,
    /// Command lines handled so far.
    handled: u64,
    /// Whether hints that the protocol's replies have no room for (`known_command`'s
    /// plain `false`) go to stderr: only when [`Engine::run`] serves a controller.
    hints_to_stderr: bool,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(Session::new())
    }
}

impl Engine {
    /// An engine over a session.
    pub fn new(session: Session) -> Engine {
        let input = Arc::new(InputState::without_input(session.stop_flag()));
        Engine {
            session,
            dialect: Dialect::Hnefi,
            quit: false,
            input,
            handled: 0,
            hints_to_stderr: false,
        }
    }

    /// The dialect spoken.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Switches the dialect, only before the first move of a game; the 0.3.1 dialect
    /// brings its repetition rule and a new game on 11x11 (the only board it names), and
    /// leaving it brings back the default rule. On an error nothing changes.
    pub fn set_dialect(&mut self, dialect: Dialect) -> Result<(), String> {
        if dialect == self.dialect {
            return Ok(());
        }
        if self.session.game().moves_played() > 0 {
            return Err("the protocol can only change before the first move of a game".into());
        }
        let repetition = match dialect {
            Dialect::Hnefi => crate::core::repetition::RepetitionMode::default(),
            Dialect::Compat03 => compat03::REPETITION,
        };
        if dialect == Dialect::Compat03 {
            self.session
                .set_board_size(crate::core::geometry::BoardSize::S11)
                .map_err(|e| format!("the 0.3.1 dialect plays 11x11: {e}"))?;
        }
        self.session.set_repetition(repetition);
        self.session
            .new_game(Some(crate::core::role::Role::Attacker))
            .map_err(|e| e.to_string())?;
        self.dialect = dialect;
        Ok(())
    }

    /// `set_option compat NAME`, which changes the engine rather than the session.
    fn set_compat(&mut self, args: &[&str]) -> Result<String, String> {
        commands::arity_in(args, 2, 2, "set_option NAME VALUE")?;
        let name = args.get(1).copied().unwrap_or_default();
        let dialect = Dialect::from_name(name).map_err(|e| format!("argument 2 (VALUE): {e}"))?;
        self.set_dialect(dialect)?;
        Ok(String::new())
    }

    /// The session.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// True once `quit` was received.
    pub fn quit_requested(&self) -> bool {
        self.quit
    }

    /// Handles one line (without its line end); returns the formatted reply, or `None`
    /// for a line without a command. A streaming analysis ends at once (no further line
    /// can arrive), its reply complete with the empty line.
    pub fn handle_line(&mut self, line: &[u8]) -> Option<String> {
        self.handle_raw(&RawLine::from_bytes(line))
    }

    /// Handles one line as read by [`read_line`], as [`Engine::handle_line`] does.
    pub(crate) fn handle_raw(&mut self, line: &RawLine) -> Option<String> {
        let mut out = Vec::new();
        // Writing to a vector cannot fail.
        let open = self
            .handle_into(line, Instant::now(), &mut out)
            .unwrap_or(false);
        if open {
            out.push(b'\n');
        }
        (!out.is_empty()).then(|| String::from_utf8_lossy(&out).into_owned())
    }

    /// Handles one line that arrived at `arrival`, writing its reply to `out`. Returns
    /// true when the reply is a streaming analysis still open: its empty line is due when
    /// the next command line arrives (or input ends).
    fn handle_into(
        &mut self,
        line: &RawLine,
        arrival: Instant,
        out: &mut dyn Write,
    ) -> io::Result<bool> {
        self.session.set_arrival(Some(arrival));
        let (id, name, args) = match parse_line(line) {
            Parsed::Empty => return Ok(false),
            Parsed::Invalid { id, message } => {
                self.handled += 1;
                out.write_all(format_reply(id, &Err(message)).as_bytes())?;
                return Ok(false);
            }
            Parsed::Command { id, name, args } => (id, name, args),
        };
        self.handled += 1;
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let cmd = self.dialect.find(&name);
        let streaming = match cmd {
            Some(c) if c.name == "analyze" && self.dialect == Dialect::Hnefi => {
                stream::cadence(&args, &self.session)
            }
            _ => None,
        };
        let result = match (cmd, streaming) {
            (_, Some(Ok(cadence))) => match self.session.check_analyzable() {
                Ok(()) => {
                    let head = format_reply(id, &Ok(String::new()));
                    let head = head.trim_end_matches('\n');
                    let (session, input) = (&mut self.session, &self.input);
                    stream::run(session, head, cadence, input, self.handled, out)?;
                    return Ok(true);
                }
                Err(e) => Err(e.to_string()),
            },
            (_, Some(Err(message))) => Err(message),
            (Some(c), None) if c.name == "set_option" && args.first() == Some(&"compat") => {
                self.set_compat(&args)
            }
            (Some(c), None) => {
                let result = (c.run)(&mut self.session, &args);
                if c.ends_session && result.is_ok() {
                    self.quit = true;
                }
                if c.name == "known_command" && result.as_deref() == Ok("false") {
                    self.hint_on_stderr(args.first().copied().unwrap_or_default());
                }
                result
            }
            (None, None) => Err(self.dialect.unknown(&name)),
        };
        out.write_all(format_reply(id, &result).as_bytes())?;
        Ok(false)
    }

    /// `known_command NAME` answers GTP's plain `false`; a hint for NAME goes to stderr,
    /// where logs go, when a controller is served.
    fn hint_on_stderr(&self, name: &str) {
        if self.hints_to_stderr
            && let Some(hint) = self.dialect.hint(name)
        {
            let _ = writeln!(
                io::stderr(),
                "hnefi: known_command {}: false; {hint}",
                crate::core::excerpt::excerpt(name)
            );
        }
    }

    /// Ponders on the opponent's expected `reply` (`set_option ponder true`, after
    /// `generate_move`) until the next command line arrives or input ends, as a
    /// streaming analysis runs; the next command then runs as usual, and if it plays
    /// `reply`, the next search finds the table warm.
    fn ponder(&mut self, reply: crate::core::any_square::AnyMove) {
        self.input.begin_stream(self.handled);
        self.session.ponder_on(reply, None);
        self.input.end_stream();
    }

    /// Reads commands until end of input or `quit`, writing each reply and flushing it.
    ///
    /// Input is read on a thread of its own ([`reader`]), so that `stop` reaches a running
    /// search or perft, and the next command line ends a streaming analysis or pondering.
    /// `quit`, like end of input, stops nothing else: the commands read before it run to
    /// their end.
    pub fn run<R, W>(&mut self, input: R, mut output: W) -> io::Result<()>
    where
        R: BufRead + Send + 'static,
        W: Write,
    {
        self.input = Arc::new(InputState::new(self.session.stop_flag()));
        self.hints_to_stderr = true;
        let lines = reader::spawn_reader(input, Arc::clone(&self.input))?;
        let mut stream_open = false;
        // When the last reply was written: a controller that waits for each reply starts
        // a command's clock no earlier, so a command read ahead (a script's lines, all
        // read at once) counts its time from then, not from its read.
        let mut replied: Option<Instant> = None;
        for message in lines {
            let (line, interrupts, read_at) = message?;
            if stream_open && reader::is_command(&line) {
                output.write_all(b"\n")?;
                stream_open = false;
            }
            let arrival = replied.map_or(read_at, |r| r.max(read_at));
            stream_open |= self.handle_into(&line, arrival, &mut output)?;
            output.flush()?;
            // An open stream's reply ends when the next line arrives, which the
            // controller sends without waiting: that line's time runs from its read.
            replied = (!stream_open).then(Instant::now);
            if let Some(reply) = self.session.take_expected_reply() {
                self.ponder(reply);
            }
            if interrupts {
                self.input.interrupt_handled();
            }
            if self.quit {
                break;
            }
        }
        if stream_open {
            output.write_all(b"\n")?;
            output.flush()?;
        }
        Ok(())
    }
}
