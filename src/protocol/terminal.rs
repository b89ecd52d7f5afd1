//! Input from a person at a terminal: line editing (arrows, Home, End, Ctrl-A, Ctrl-E),
//! the history of the session (Up, Down, Ctrl-R) and Tab completion of command names
//! (of option names after `set_option`), from the `rustyline` crate. The lines it gives
//! are the same protocol lines a pipe carries: [`Engine::run`](super::Engine::run) reads
//! them as it reads any input, and a pipe never comes here (`hnefi` checks that stdin is a
//! terminal), so its bytes are read exactly as before.
//!
//! The editor runs on a thread of its own, reading the next line while a command runs,
//! as the protocol's reader does: `stop` can be typed during a search. Ctrl-C, which the
//! editor receives as a key, sends `stop`; Ctrl-D on an empty line ends the input.

use std::io::{self, BufRead, Read};
use std::sync::mpsc;

use rustyline::completion::Completer;
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{Context, Editor, Helper};

use super::{commands, compat03};
use crate::options;

/// Completes the word under the cursor: a command name first (after an optional id), a
/// command name after `help` and `known_command`, an option name after `set_option`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct NameCompleter;

impl NameCompleter {
    /// The candidates for the word that ends at `pos` in `line`, and where it starts.
    pub(crate) fn candidates(line: &str, pos: usize) -> (usize, Vec<String>) {
        let before = line.get(..pos).unwrap_or(line);
        let start = before.rfind([' ', '\t']).map_or(0, |i| i + 1);
        let word = before.get(start..).unwrap_or_default();
        let mut earlier: Vec<&str> = before
            .get(..start)
            .unwrap_or_default()
            .split_whitespace()
            .collect();
        if earlier
            .first()
            .is_some_and(|w| w.bytes().all(|b| b.is_ascii_digit()))
        {
            earlier.remove(0);
        }
        let pool: Vec<&str> = match earlier.as_slice() {
            [] | ["help"] | ["known_command"] => command_names(),
            ["set_option"] => options::names(),
            _ => Vec::new(),
        };
        let found = pool
            .into_iter()
            .filter(|n| n.starts_with(word))
            .map(str::to_string)
            .collect();
        (start, found)
    }
}

/// Every command name of both dialects, once each, sorted.
fn command_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = commands::COMMANDS
        .iter()
        .chain(compat03::commands::COMMANDS)
        .map(|c| c.name)
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

impl Completer for NameCompleter {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        Ok(NameCompleter::candidates(line, pos))
    }
}

impl Hinter for NameCompleter {
    type Hint = String;
}

impl Highlighter for NameCompleter {}

impl Validator for NameCompleter {}

impl Helper for NameCompleter {}

/// The lines a person types at the terminal, as a [`BufRead`] of protocol lines (each
/// ending with `\n`).
#[derive(Debug)]
pub struct EditedInput {
    lines: mpsc::Receiver<io::Result<String>>,
    buf: Vec<u8>,
    pos: usize,
}

impl EditedInput {
    /// Starts the line editor on the terminal, on a thread of its own (fails when the
    /// system refuses the thread).
    pub fn start() -> Result<EditedInput, crate::thread::SpawnError> {
        // No read-ahead beyond the line being typed: the protocol's reader holds the rest.
        let (tx, rx) = mpsc::sync_channel(0);
        crate::thread::spawn("line editor", move || edit_lines(&tx))?;
        Ok(EditedInput {
            lines: rx,
            buf: Vec::new(),
            pos: 0,
        })
    }
}

/// Reads lines with the editor until Ctrl-D, an error, or the receiver is gone.
fn edit_lines(tx: &mpsc::SyncSender<io::Result<String>>) {
    let mut editor: Editor<NameCompleter, DefaultHistory> = match Editor::new() {
        Ok(e) => e,
        Err(e) => {
            let _ = tx.send(Err(io::Error::other(e)));
            return;
        }
    };
    editor.set_helper(Some(NameCompleter));
    loop {
        let line = match editor.readline("") {
            Ok(line) => {
                if !line.trim().is_empty() {
                    // A history that refuses an entry (a duplicate) loses nothing.
                    let _ = editor.add_history_entry(line.as_str());
                }
                Ok(line)
            }
            Err(ReadlineError::Interrupted) => Ok("stop".to_string()),
            Err(ReadlineError::Eof) => return,
            Err(e) => Err(io::Error::other(e)),
        };
        let failed = line.is_err();
        if tx.send(line).is_err() || failed {
            return;
        }
    }
}

impl Read for EditedInput {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        if let (Some(dst), Some(src)) = (out.get_mut(..n), available.get(..n)) {
            dst.copy_from_slice(src);
        }
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for EditedInput {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos >= self.buf.len() {
            self.buf.clear();
            self.pos = 0;
            // A closed channel is the end of input (Ctrl-D).
            if let Ok(line) = self.lines.recv() {
                self.buf = line?.into_bytes();
                self.buf.push(b'\n');
            }
        }
        Ok(self.buf.get(self.pos..).unwrap_or_default())
    }

    fn consume(&mut self, amount: usize) {
        self.pos = self.pos.saturating_add(amount).min(self.buf.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completes_commands_and_options() {
        let (start, found) = NameCompleter::candidates("list_com", 8);
        assert_eq!((start, found), (0, vec!["list_commands".to_string()]));
        let (start, found) = NameCompleter::candidates("3 gen", 5);
        assert_eq!((start, found), (2, vec!["generate_move".to_string()]));
        let (start, found) = NameCompleter::candidates("set_option mu", 13);
        assert_eq!((start, found), (11, vec!["multipv".to_string()]));
        let (_, found) = NameCompleter::candidates("help show_b", 11);
        assert_eq!(found, vec!["show_board".to_string()]);
        let (_, found) = NameCompleter::candidates("play attacker d", 15);
        assert!(found.is_empty());
    }
}
