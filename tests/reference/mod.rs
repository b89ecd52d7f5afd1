//! The reference engine `hnefatafl-text-protocol` 6.4.1 (crate `hnefatafl-copenhagen`, AGPL)
//! run as a separate program and driven over its text protocol; no code of it is used.
//!
//! What its replies look like (observed): a success is one line `= TEXT`; a refusal is
//! `? TEXT` followed by an empty line. `play ROLE FROM TO` answers the squares it captured
//! (the king's square included when he is taken); `final_status` answers `ongoing`,
//! `attacker_wins`, `defender_wins` or `draw`; `show_board_open_tafl` the board from the top
//! rank down with `A`, `D` and `K`, the captured king left off; `play_from` the side to move
//! and the squares of its pieces that can move; `play_to ROLE SQUARE` the squares that piece
//! can reach. On 13x13 squares come in capitals. It reads its input until `quit`.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// Where `.ci/run` installs the engine, under the cache directory.
const CACHED: &str = ".cache/hnefi-ci/hnefatafl-text-protocol-6.4.1/bin/hnefatafl-text-protocol";

/// The engine: `$HNEFI_REFERENCE`, or the copy `.ci/run` installs in the cache.
pub fn reference_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("HNEFI_REFERENCE") {
        return Some(PathBuf::from(p)).filter(|p| p.is_file());
    }
    let p = PathBuf::from(std::env::var_os("HOME")?).join(CACHED);
    p.is_file().then_some(p)
}

/// One reply: `Ok` with the text after `= `, `Err` with the text after `? `.
pub type Reply = Result<String, String>;

/// A running reference engine.
pub struct Reference {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Reference {
    /// Starts the engine; panics when it is missing, so that a test that asked for it
    /// fails rather than passes.
    pub fn start() -> Reference {
        let path = reference_path().unwrap_or_else(|| {
            panic!(
                "the reference engine hnefatafl-text-protocol 6.4.1 is not installed: set \
                 HNEFI_REFERENCE or run .ci/run, which installs it into ~/{CACHED}"
            )
        });
        let mut child = Command::new(&path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", path.display()));
        let stdin = child.stdin.take().expect("the engine's stdin");
        let stdout = BufReader::new(child.stdout.take().expect("the engine's stdout"));
        Reference {
            child,
            stdin,
            stdout,
        }
    }

    /// Sends the commands in one write and reads their replies, one per command.
    pub fn send<S: AsRef<str>>(&mut self, commands: &[S]) -> Vec<Reply> {
        let mut text = String::new();
        for c in commands {
            text.push_str(c.as_ref());
            text.push('\n');
        }
        self.stdin
            .write_all(text.as_bytes())
            .and_then(|()| self.stdin.flush())
            .expect("write to the reference engine");
        commands.iter().map(|_| self.read_reply()).collect()
    }

    /// Sends one command and returns its reply.
    pub fn ask(&mut self, command: &str) -> Reply {
        self.send(&[command]).remove(0)
    }

    /// Reads the next reply, skipping the empty line that ends a refusal.
    fn read_reply(&mut self) -> Reply {
        let mut line = String::new();
        loop {
            line.clear();
            let n = self
                .stdout
                .read_line(&mut line)
                .expect("read from the reference engine");
            assert!(n > 0, "the reference engine closed its output");
            let text = line.trim_end();
            if text.is_empty() {
                continue;
            }
            if let Some(rest) = text.strip_prefix('=') {
                return Ok(rest.trim().to_string());
            }
            if let Some(rest) = text.strip_prefix('?') {
                return Err(rest.trim().to_string());
            }
            panic!("the reference engine's reply is neither '=' nor '?': {text:?}");
        }
    }
}

impl Drop for Reference {
    fn drop(&mut self) {
        let _ = self.stdin.write_all(b"quit\n");
        let _ = self.stdin.flush();
        // `quit` ends it; the kill only matters when a failed test left it mid-reply.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
