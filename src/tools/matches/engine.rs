//! An engine process: a child with piped stdin and stdout (or a TCP connection to it), a
//! reader thread that turns its output into lines on a channel, so that every read has a
//! deadline, another that keeps the tail of its stderr (to show when it fails), and a
//! kill on drop.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::tools::interrupt;

/// The longest line kept from an engine; the rest of a longer line is dropped.
const MAX_LINE: usize = 64 * 1024;

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub(crate) enum EngineError {
    /// No reply before the deadline.
    #[error("no reply before the deadline")]
    Timeout,
    /// The engine closed its output or exited (or could not be written to).
    #[error("the engine exited")]
    Exited,
    /// The engine could not be started.
    #[error("could not start: {0}")]
    Start(String),
    /// The runner was interrupted (SIGINT) while it waited: the game is abandoned.
    #[error("the match was interrupted")]
    Interrupted,
}

/// Starts a reader thread of an engine; the system's refusal fails the engine's start.
fn spawn_thread(name: &'static str, f: impl FnOnce() + Send + 'static) -> Result<(), EngineError> {
    crate::thread::spawn(name, f)
        .map(drop)
        .map_err(|e| EngineError::Start(e.to_string()))
}

/// How often a read that waits checks for an interrupt.
const INTERRUPT_POLL: Duration = Duration::from_millis(100);

/// Splits an engine command line into words as a POSIX shell does (quotes, backslash
/// escapes; no expansions), with the `shlex` crate. Returns `None` for an unterminated
/// quote or an empty command.
pub(crate) fn split_command(cmd: &str) -> Option<Vec<String>> {
    shlex::split(cmd).filter(|words| !words.is_empty())
}

/// A line from the engine, or the end of its output.
enum Event {
    Line(String),
    End,
}

/// The most of an engine's stderr kept (its last bytes), to show when it fails.
const STDERR_TAIL: usize = 4096;

/// The tail of an engine's stderr, filled by a reader thread.
#[derive(Clone, Default)]
struct StderrTail {
    bytes: Arc<Mutex<Vec<u8>>>,
    done: Arc<AtomicBool>,
}

impl StderrTail {
    /// Reads `source` to its end, keeping the last [`STDERR_TAIL`] bytes; with `echo`,
    /// every line also goes to our stderr, marked `LABEL!`.
    fn spawn(
        source: impl Read + Send + 'static,
        echo: Option<String>,
    ) -> Result<StderrTail, EngineError> {
        let tail = StderrTail::default();
        let keep = tail.clone();
        spawn_thread("engine stderr", move || {
            let mut reader = BufReader::new(source);
            let mut buf = Vec::new();
            while let Ok(n) = read_capped_line(&mut reader, &mut buf) {
                if n == 0 {
                    break;
                }
                if let Some(label) = &echo {
                    eprint!("{label}! {}", String::from_utf8_lossy(&buf));
                }
                if let Ok(mut b) = keep.bytes.lock() {
                    b.extend_from_slice(&buf);
                    let excess = b.len().saturating_sub(STDERR_TAIL);
                    b.drain(..excess);
                }
                buf.clear();
            }
            keep.done.store(true, Ordering::SeqCst);
        })?;
        Ok(tail)
    }

    /// The text kept so far, waiting up to `wait` for the stream to end first.
    fn text(&self, wait: Duration) -> String {
        let deadline = Instant::now() + wait;
        while !self.done.load(Ordering::SeqCst) && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(10));
        }
        self.bytes
            .lock()
            .map(|b| String::from_utf8_lossy(&b).trim_end().to_string())
            .unwrap_or_default()
    }
}

/// A running engine.
pub(crate) struct Process {
    child: Child,
    input: Box<dyn Write + Send>,
    lines: Receiver<Event>,
    stderr: StderrTail,
    ended: bool,
    log: Option<String>,
}

/// Reads lines (lossy UTF-8, `\r` trimmed, at most [`MAX_LINE`] bytes kept) and sends them
/// until the end of the stream.
fn spawn_reader(source: impl Read + Send + 'static) -> Result<Receiver<Event>, EngineError> {
    let (tx, rx) = mpsc::channel();
    spawn_thread("engine output", move || {
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
    })?;
    Ok(rx)
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

fn command(words: &[String]) -> Result<Command, EngineError> {
    let (program, args) = words
        .split_first()
        .ok_or_else(|| EngineError::Start("empty command".into()))?;
    let mut cmd = Command::new(program);
    cmd.args(args);
    // A process group of its own: a Ctrl-C in the terminal reaches the runner alone,
    // which abandons the games in progress and kills its engines itself, instead of
    // the engines dying first and their games being scored as crashes.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    Ok(cmd)
}

impl Process {
    /// Starts a command and talks to it through its stdin and stdout. Its stderr is kept
    /// (the tail, for [`Process::stderr_text`]) and, with `echo` (a label), copied to ours.
    pub(crate) fn spawn(words: &[String], echo: Option<String>) -> Result<Process, EngineError> {
        let mut child = command(words)?
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| EngineError::Start(e.to_string()))?;
        let (Some(stdin), Some(stdout), Some(err)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineError::Start("no pipes".into()));
        };
        let threads =
            spawn_reader(stdout).and_then(|lines| Ok((lines, StderrTail::spawn(err, echo)?)));
        let (lines, stderr) = match threads {
            Ok(t) => t,
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(e);
            }
        };
        Ok(Process {
            child,
            input: Box::new(stdin),
            lines,
            stderr,
            ended: false,
            log: None,
        })
    }

    /// Starts a command that connects to `listener` (the relay) and talks to it over that
    /// connection; its stdout is discarded, its stderr kept as with [`Process::spawn`].
    /// Fails if it has not connected within `wait`.
    pub(crate) fn spawn_tcp(
        words: &[String],
        listener: &TcpListener,
        wait: Duration,
        echo: Option<String>,
    ) -> Result<Process, EngineError> {
        let mut child = command(words)?
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| EngineError::Start(e.to_string()))?;
        let stderr = match child.stderr.take() {
            Some(err) => StderrTail::spawn(err, echo),
            None => Ok(StderrTail::default()),
        };
        let connected = stderr.and_then(|stderr| {
            let stream = accept(listener, &mut child, wait)?;
            let reader = stream
                .try_clone()
                .map_err(|e| EngineError::Start(e.to_string()))?;
            Ok((spawn_reader(reader)?, stream, stderr))
        });
        match connected {
            Ok((lines, stream, stderr)) => Ok(Process {
                child,
                input: Box::new(stream),
                lines,
                stderr,
                ended: false,
                log: None,
            }),
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                Err(e)
            }
        }
    }

    /// The tail of the engine's stderr. When the engine has exited (or is killed here
    /// first, with `kill`), waits briefly for the last of it.
    pub(crate) fn stderr_text(&mut self, kill: bool) -> String {
        if kill {
            let _ = self.child.kill();
        }
        let exited = matches!(self.child.try_wait(), Ok(Some(_))) || kill;
        let wait = if exited {
            let _ = self.child.wait();
            Duration::from_millis(500)
        } else {
            Duration::ZERO
        };
        self.stderr.text(wait)
    }

    /// The exit status, if the engine has exited (waiting up to `wait` for it).
    pub(crate) fn exit_status(&mut self, wait: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + wait;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(10));
        }
    }

    /// Logs every line sent and received to stderr, marked `LABEL>` and `LABEL<`.
    pub(crate) fn set_log(&mut self, label: String) {
        self.log = Some(label);
    }

    /// Writes one line (a newline is added) and flushes it.
    pub(crate) fn send(&mut self, line: &str) -> Result<(), EngineError> {
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

    /// The next line of output, waiting until `deadline` at most; `Interrupted` as soon
    /// as a SIGINT came (checked every [`INTERRUPT_POLL`]).
    pub(crate) fn read_line(&mut self, deadline: Instant) -> Result<String, EngineError> {
        if self.ended {
            return Err(EngineError::Exited);
        }
        loop {
            if interrupt::requested() {
                return Err(EngineError::Interrupted);
            }
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(wait.min(INTERRUPT_POLL)) {
                Ok(Event::Line(l)) => {
                    if let Some(label) = &self.log {
                        eprintln!("{label}< {l}");
                    }
                    return Ok(l);
                }
                Ok(Event::End) | Err(RecvTimeoutError::Disconnected) => {
                    self.ended = true;
                    return Err(EngineError::Exited);
                }
                Err(RecvTimeoutError::Timeout) if wait <= INTERRUPT_POLL => {
                    return Err(EngineError::Timeout);
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
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

#[cfg(test)]
mod examples {
    //! The examples of this file's documentation, as unit tests: the items they show are
    //! the crate's own, which a doctest (another crate) cannot reach.

    #[test]
    fn split_command() {
        use crate::tools::matches::engine::split_command;
        let words = split_command(r#"hnefi --depth 1 'a b' "c d" e\ f "g\h""#).unwrap();
        assert_eq!(
            words,
            ["hnefi", "--depth", "1", "a b", "c d", "e f", "g\\h"]
        );
        assert_eq!(split_command("x 'y"), None);
        assert_eq!(split_command("  "), None);
    }
}
