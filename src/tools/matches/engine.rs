//! An engine process: a child with piped stdin and stdout (or a TCP connection to it), a
//! reader thread that turns its output into lines on a channel, so that every read has a
//! deadline, and a kill on drop.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// The longest line kept from an engine; the rest of a longer line is dropped.
const MAX_LINE: usize = 64 * 1024;

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// No reply before the deadline.
    Timeout,
    /// The engine closed its output or exited (or could not be written to).
    Exited,
    /// The engine could not be started.
    Start(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Timeout => f.write_str("no reply before the deadline"),
            EngineError::Exited => f.write_str("the engine exited"),
            EngineError::Start(e) => write!(f, "could not start: {e}"),
        }
    }
}

/// Splits a command line into words: spaces separate words, single quotes keep text as it
/// is, double quotes keep spaces, a backslash outside single quotes escapes the next
/// character. Returns `None` for an unterminated quote or an empty command.
///
/// ```
/// use hnefi::tools::matches::engine::split_command;
/// let words = split_command(r#"hnefi --depth 1 'a b' "c d" e\ f"#).unwrap();
/// assert_eq!(words, ["hnefi", "--depth", "1", "a b", "c d", "e f"]);
/// assert_eq!(split_command("x 'y"), None);
/// ```
pub fn split_command(cmd: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = cmd.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '\'' => break,
                        ch => word.push(ch),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => word.push(chars.next()?),
                        ch => word.push(ch),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.push(chars.next()?);
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    (!words.is_empty()).then_some(words)
}

/// A line from the engine, or the end of its output.
enum Event {
    Line(String),
    End,
}

/// A running engine.
pub struct Process {
    child: Child,
    input: Box<dyn Write + Send>,
    lines: Receiver<Event>,
    ended: bool,
    log: Option<String>,
}

/// Reads lines (lossy UTF-8, `\r` trimmed, at most [`MAX_LINE`] bytes kept) and sends them
/// until the end of the stream.
fn spawn_reader(source: impl Read + Send + 'static) -> Receiver<Event> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut reader = BufReader::new(source);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match read_capped_line(&mut reader, &mut buf) {
                Ok(0) | Err(_) => {
                    let _ = tx.send(Event::End);
                    return;
                }
                Ok(_) => {
                    while buf.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
                        buf.pop();
                    }
                    let line = String::from_utf8_lossy(&buf).into_owned();
                    if tx.send(Event::Line(line)).is_err() {
                        return;
                    }
                }
            }
        }
    });
    rx
}

/// Reads up to and including a newline, keeping at most [`MAX_LINE`] bytes; returns the
/// number of bytes consumed (0 at the end of the stream).
fn read_capped_line(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<usize> {
    let mut total = 0;
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            return Ok(total);
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let room = MAX_LINE.saturating_sub(buf.len());
        buf.extend_from_slice(chunk.get(..take.min(room)).unwrap_or_default());
        reader.consume(take);
        total += take;
        if done {
            return Ok(total);
        }
    }
}

fn stderr(show: bool) -> Stdio {
    if show {
        Stdio::inherit()
    } else {
        Stdio::null()
    }
}

fn command(words: &[String]) -> Result<Command, EngineError> {
    let (program, args) = words
        .split_first()
        .ok_or_else(|| EngineError::Start("empty command".into()))?;
    let mut cmd = Command::new(program);
    cmd.args(args);
    Ok(cmd)
}

impl Process {
    /// Starts a command and talks to it through its stdin and stdout; its stderr goes to
    /// ours if `show_stderr`, else nowhere.
    pub fn spawn(words: &[String], show_stderr: bool) -> Result<Process, EngineError> {
        let mut child = command(words)?
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr(show_stderr))
            .spawn()
            .map_err(|e| EngineError::Start(e.to_string()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineError::Start("no pipes".into()));
        };
        Ok(Process {
            child,
            input: Box::new(stdin),
            lines: spawn_reader(stdout),
            ended: false,
            log: None,
        })
    }

    /// Starts a command that connects to `listener` (the relay) and talks to it over that
    /// connection; its stdout is discarded, its stderr goes to ours if `show_stderr`.
    /// Fails if it has not connected within `wait`.
    pub fn spawn_tcp(
        words: &[String],
        listener: &TcpListener,
        wait: Duration,
        show_stderr: bool,
    ) -> Result<Process, EngineError> {
        let mut child = command(words)?
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr(show_stderr))
            .spawn()
            .map_err(|e| EngineError::Start(e.to_string()))?;
        match accept(listener, &mut child, wait) {
            Ok(stream) => {
                let reader = stream.try_clone();
                match reader {
                    Ok(reader) => Ok(Process {
                        child,
                        input: Box::new(stream),
                        lines: spawn_reader(reader),
                        ended: false,
                        log: None,
                    }),
                    Err(e) => {
                        let _ = child.kill();
                        let _ = child.wait();
                        Err(EngineError::Start(e.to_string()))
                    }
                }
            }
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                Err(e)
            }
        }
    }

    /// Logs every line sent and received to stderr, marked `LABEL>` and `LABEL<`.
    pub fn set_log(&mut self, label: String) {
        self.log = Some(label);
    }

    /// Writes one line (a newline is added) and flushes it.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if let Some(label) = &self.log {
            eprintln!("{label}> {line}");
        }
        if self.ended {
            return Err(EngineError::Exited);
        }
        let r = self
            .input
            .write_all(line.as_bytes())
            .and_then(|()| self.input.write_all(b"\n"))
            .and_then(|()| self.input.flush());
        r.map_err(|_| EngineError::Exited)
    }

    /// The next line of output, waiting until `deadline` at most.
    pub fn read_line(&mut self, deadline: Instant) -> Result<String, EngineError> {
        if self.ended {
            return Err(EngineError::Exited);
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(Event::Line(l)) => {
                if let Some(label) = &self.log {
                    eprintln!("{label}< {l}");
                }
                Ok(l)
            }
            Ok(Event::End) | Err(RecvTimeoutError::Disconnected) => {
                self.ended = true;
                Err(EngineError::Exited)
            }
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout),
        }
    }
}

/// Accepts one connection on a non-blocking listener, giving up after `wait` or when the
/// child exits.
fn accept(
    listener: &TcpListener,
    child: &mut Child,
    wait: Duration,
) -> Result<TcpStream, EngineError> {
    let deadline = Instant::now() + wait;
    listener
        .set_nonblocking(true)
        .map_err(|e| EngineError::Start(e.to_string()))?;
    loop {
        match listener.accept() {
            Ok((stream, addr)) => {
                if !addr.ip().is_loopback() {
                    continue;
                }
                stream
                    .set_nonblocking(false)
                    .map_err(|e| EngineError::Start(e.to_string()))?;
                let _ = stream.set_nodelay(true);
                return Ok(stream);
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
            Err(e) => return Err(EngineError::Start(e.to_string())),
        }
        if let Ok(Some(status)) = child.try_wait() {
            return Err(EngineError::Start(format!(
                "exited ({status}) before connecting to the relay"
            )));
        }
        if Instant::now() >= deadline {
            return Err(EngineError::Start(
                "did not connect to the relay in time".into(),
            ));
        }
        thread::sleep(Duration::from_millis(10));
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
