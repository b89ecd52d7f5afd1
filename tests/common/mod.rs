//! Helpers shared by the protocol tests: starting the real binary and talking to it.
//!
//! Every read from a child and every wait for its exit has a deadline ([`LIMIT`]): a
//! regression that leaves a program silent fails its test, saying what it waited for,
//! instead of hanging the whole run.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Output, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// The path of the `hnefi` binary that cargo built for these tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_hnefi");

/// The longest a test waits for one line of a child, or for its exit: far beyond what
/// any command of these tests takes on a loaded machine, so that only a hang reaches it.
pub const LIMIT: Duration = Duration::from_secs(300);

/// The lines of a child's output (or of a socket), read on a thread of their own so that
/// every read can have a deadline. Each line keeps its line end.
pub struct Lines {
    rx: Receiver<std::io::Result<String>>,
    what: String,
}

impl Lines {
    /// Starts reading `source`; `what` names it in failures (`hnefi's stdout`).
    pub fn spawn(source: impl Read + Send + 'static, what: &str) -> Lines {
        let (tx, rx) = mpsc::channel();
        thread::Builder::new()
            .name(format!("test reader: {what}"))
            .spawn(move || {
                let mut reader = BufReader::new(source);
                loop {
                    let mut buf = String::new();
                    match reader.read_line(&mut buf) {
                        Ok(0) => return,
                        Ok(_) => {
                            if tx.send(Ok(buf)).is_err() {
                                return;
                            }
                        }
                        Err(e) => {
                            let _ = tx.send(Err(e));
                            return;
                        }
                    }
                }
            })
            .expect("start a test reader thread");
        Lines {
            rx,
            what: what.to_string(),
        }
    }

    /// The next line with its line end, or `None` at the end of the stream; fails the
    /// test when none comes within [`LIMIT`], naming `waiting_for`.
    pub fn next_raw(&self, waiting_for: &str) -> Option<String> {
        match self.rx.recv_timeout(LIMIT) {
            Ok(Ok(line)) => Some(line),
            Ok(Err(e)) => panic!("cannot read {} ({e}) waiting for {waiting_for}", self.what),
            Err(RecvTimeoutError::Disconnected) => None,
            Err(RecvTimeoutError::Timeout) => panic!(
                "no line from {} within {LIMIT:?} while waiting for {waiting_for}",
                self.what
            ),
        }
    }

    /// The next line without its line end; fails the test at the end of the stream too.
    pub fn next(&self, waiting_for: &str) -> String {
        let line = self
            .next_raw(waiting_for)
            .unwrap_or_else(|| panic!("{} ended while waiting for {waiting_for}", self.what));
        line.trim_end_matches(['\n', '\r']).to_string()
    }

    /// Everything up to the end of the stream, within [`LIMIT`] in all.
    pub fn rest(&self, waiting_for: &str) -> String {
        let end = Instant::now() + LIMIT;
        let mut text = String::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(Ok(line)) => text.push_str(&line),
                Ok(Err(e)) => panic!("cannot read {} ({e}) waiting for {waiting_for}", self.what),
                Err(RecvTimeoutError::Disconnected) => return text,
                Err(RecvTimeoutError::Timeout) => panic!(
                    "{} did not end within {LIMIT:?} while waiting for {waiting_for}; read so far:\n{text}",
                    self.what
                ),
            }
        }
    }
}

/// Waits for `child` to exit, at most [`LIMIT`]; past it, kills it and fails the test,
/// naming `what` (the program and what it was to finish).
pub fn wait_exit(child: &mut Child, what: &str) -> ExitStatus {
    let end = Instant::now() + LIMIT;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return status,
            Ok(None) => {}
            Err(e) => panic!("cannot wait for {what}: {e}"),
        }
        if Instant::now() >= end {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} did not exit within {LIMIT:?}");
        }
        thread::sleep(Duration::from_millis(20));
    }
}

/// Reads all of `source` into bytes on a thread of its own.
fn collect(mut source: impl Read + Send + 'static) -> Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel();
    thread::Builder::new()
        .name("test collector".to_string())
        .spawn(move || {
            let mut bytes = Vec::new();
            let _ = source.read_to_end(&mut bytes);
            let _ = tx.send(bytes);
        })
        .expect("start a test collector thread");
    rx
}

/// Runs `cmd` to its exit with its stdin closed and its stdout and stderr captured, as
/// [`Command::output`] does, at most [`LIMIT`]: then it is killed and the test fails,
/// naming `what`.
pub fn output_of(cmd: &mut Command, what: &str) -> Output {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {what}: {e}"));
    finish_output(&mut child, what)
}

/// Waits for a started `child` whose stdout and stderr are piped and not yet taken, as
/// [`Child::wait_with_output`] does, at most [`LIMIT`].
pub fn finish_output(child: &mut Child, what: &str) -> Output {
    let stdout = child.stdout.take().map(collect);
    let stderr = child.stderr.take().map(collect);
    let status = wait_exit(child, what);
    let take = |rx: Option<Receiver<Vec<u8>>>, name: &str| {
        rx.map(|rx| {
            rx.recv_timeout(LIMIT)
                .unwrap_or_else(|_| panic!("the {name} of {what} stayed open after its exit"))
        })
        .unwrap_or_default()
    };
    Output {
        status,
        stdout: take(stdout, "stdout"),
        stderr: take(stderr, "stderr"),
    }
}

/// Runs `hnefi` with `args`, feeds it `input` and waits for it to exit (at most
/// [`LIMIT`], then it is killed and the test fails).
pub fn run_binary(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start hnefi");
    let mut stdin = child.stdin.take().expect("stdin");
    let data = input.to_vec();
    // Write on another thread so a full stdout pipe cannot deadlock the test.
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let out = finish_output(&mut child, &format!("hnefi {}", args.join(" ")));
    writer.join().expect("writer thread");
    out
}

/// Runs `hnefi` with `args` and the text `input`; returns (exit success, stdout, stderr).
pub fn run_text(args: &[&str], input: &str) -> (bool, String, String) {
    let out = run_binary(args, input.as_bytes());
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

/// A fresh scratch directory in the temp dir for the test `name` of the file `file`
/// (`hnefi-FILE-PID-NAME`); the test removes it when it passes.
pub fn scratch(file: &str, name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("hnefi-{file}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// Output bytes as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// An `info` line without its clock-dependent fields (`nps`, `time`): what a
/// single-threaded search from a fresh table reproduces exactly.
pub fn without_clock(line: &str) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    let mut kept = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if matches!(words[i], "nps" | "time") {
            i += 2;
        } else {
            kept.push(words[i]);
            i += 1;
        }
    }
    kept.join(" ")
}

/// A running engine driven one command at a time through its pipes.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: Lines,
}

impl Engine {
    /// Starts `hnefi` with `args`; stderr is discarded.
    pub fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(BIN)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start hnefi");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = Lines::spawn(child.stdout.take().expect("stdout"), "hnefi's stdout");
        Engine {
            child,
            stdin,
            stdout,
        }
    }

    /// Sends one command line and reads its reply up to the empty line. Returns the
    /// reply's lines (the empty line excluded).
    pub fn send(&mut self, line: &str) -> Vec<String> {
        self.write(line);
        self.read_reply_to(line)
    }

    /// Sends lines without waiting for a reply.
    pub fn write(&mut self, lines: &str) {
        writeln!(self.stdin, "{lines}").expect("write command");
        self.stdin.flush().expect("flush");
    }

    /// Reads one line of stdout, without its line end.
    pub fn read_line(&mut self) -> String {
        self.stdout.next("a line of output")
    }

    /// Reads one reply up to the empty line; its lines, the empty line excluded.
    pub fn read_reply(&mut self) -> Vec<String> {
        self.read_reply_to("the commands sent")
    }

    /// [`Engine::read_reply`], naming the command in a failure.
    fn read_reply_to(&mut self, command: &str) -> Vec<String> {
        let waiting_for = format!("the end of the reply to {command:?}");
        let mut lines = Vec::new();
        loop {
            let text = self.stdout.next(&waiting_for);
            if text.is_empty() {
                return lines;
            }
            lines.push(text);
        }
    }

    /// Sends a command that must succeed and returns its result text (after `= `).
    pub fn ok(&mut self, line: &str) -> String {
        let reply = self.send(line);
        let joined = reply.join("\n");
        assert!(joined.starts_with('='), "{line:?} failed: {joined}");
        joined.trim_start_matches('=').trim_start().to_string()
    }

    /// Closes stdin and waits for the engine to exit.
    pub fn wait(self) -> ExitStatus {
        let Engine {
            mut child, stdin, ..
        } = self;
        drop(stdin);
        wait_exit(&mut child, "hnefi at the end of its input")
    }

    /// Sends `quit` and checks the exit status.
    pub fn quit(mut self) {
        assert_eq!(self.send("quit"), vec!["=".to_string()]);
        let status = wait_exit(&mut self.child, "hnefi after quit");
        assert!(status.success(), "exit status {status}");
    }
}
