//! Helpers shared by the protocol tests: starting the real binary and talking to it.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Output, Stdio};

/// The path of the `hnefi` binary that cargo built for these tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_hnefi");

/// Runs `hnefi` with `args`, feeds it `input` and waits for it to exit.
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
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let out = child.wait_with_output().expect("wait for hnefi");
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
    stdout: BufReader<ChildStdout>,
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
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
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
        self.read_reply()
    }

    /// Sends lines without waiting for a reply.
    pub fn write(&mut self, lines: &str) {
        writeln!(self.stdin, "{lines}").expect("write command");
        self.stdin.flush().expect("flush");
    }

    /// Reads one line of stdout, without its line end.
    pub fn read_line(&mut self) -> String {
        let mut buf = String::new();
        let n = self.stdout.read_line(&mut buf).expect("read line");
        assert!(n > 0, "engine closed stdout");
        buf.trim_end_matches(['\n', '\r']).to_string()
    }

    /// Reads one reply up to the empty line; its lines, the empty line excluded.
    pub fn read_reply(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let mut buf = String::new();
            let n = self.stdout.read_line(&mut buf).expect("read reply");
            assert!(n > 0, "engine closed stdout before the end of a reply");
            let text = buf.trim_end_matches(['\n', '\r']).to_string();
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
    pub fn wait(self) -> std::process::ExitStatus {
        let Engine {
            mut child, stdin, ..
        } = self;
        drop(stdin);
        child.wait().expect("wait")
    }

    /// Sends `quit` and checks the exit status.
    pub fn quit(mut self) {
        assert_eq!(self.send("quit"), vec!["=".to_string()]);
        let status = self.child.wait().expect("wait");
        assert!(status.success(), "exit status {status}");
    }
}
