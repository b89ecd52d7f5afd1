//! Input read on a thread of its own while a command runs, and what that thread may
//! signal to the command running: `stop` ends a search or perft (through the session's
//! stop flag), and any command line (`quit` among them) ends a streaming analysis or
//! pondering. `quit` waits its turn as GTP's commands do: a bounded search before it
//! finishes first.
//!
//! The reader counts the command lines it reads; the command loop counts those it handles.
//! A streaming analysis of command line `k` ends once more than `k` lines were read (or
//! input ended): both sides check the other's store after their own, so neither a line
//! nor the start of a stream can slip between them.

use std::io::{self, BufRead};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Instant;

use super::{Parsed, RawLine, parse_line, read_line};

/// How many lines the reader thread reads ahead of the command being run: enough for a
/// controller's burst, bounded so that a flood of input cannot fill the memory (then a
/// `stop` further down waits its turn).
const READ_AHEAD: usize = 256;

/// No streaming analysis runs.
const NO_STREAM: u64 = u64::MAX;

/// What the reader thread and the command loop share.
#[derive(Debug)]
pub(crate) struct InputState {
    /// The session's stop flag.
    stop: Arc<AtomicBool>,
    /// Command lines read so far (blank and comment-only lines do not count).
    read: AtomicU64,
    /// `stop` lines read and not yet handled.
    pending_interrupts: AtomicU64,
    /// The number of the command line whose streaming analysis runs, or [`NO_STREAM`].
    stream_of: AtomicU64,
    /// True once input has ended.
    ended: AtomicBool,
}

impl InputState {
    /// The state for input still to be read, over the session's stop flag.
    pub(crate) fn new(stop: Arc<AtomicBool>) -> InputState {
        InputState {
            stop,
            read: AtomicU64::new(0),
            pending_interrupts: AtomicU64::new(0),
            stream_of: AtomicU64::new(NO_STREAM),
            ended: AtomicBool::new(false),
        }
    }

    /// The state when no input will ever arrive (lines handed in one at a time): a
    /// streaming analysis ends as soon as it starts.
    pub(crate) fn without_input(stop: Arc<AtomicBool>) -> InputState {
        let state = InputState::new(stop);
        state.ended.store(true, Ordering::SeqCst);
        state
    }

    /// The reader read a command line (`interrupts` when it is `stop`).
    fn line_read(&self, interrupts: bool) {
        let n = self.read.fetch_add(1, Ordering::SeqCst) + 1;
        if interrupts {
            self.pending_interrupts.fetch_add(1, Ordering::SeqCst);
            self.stop.store(true, Ordering::SeqCst);
        }
        let stream = self.stream_of.load(Ordering::SeqCst);
        if stream != NO_STREAM && n > stream {
            self.stop.store(true, Ordering::SeqCst);
        }
    }

    /// Input ended: a streaming analysis ends, nothing else does.
    fn input_ended(&self) {
        self.ended.store(true, Ordering::SeqCst);
        if self.stream_of.load(Ordering::SeqCst) != NO_STREAM {
            self.stop.store(true, Ordering::SeqCst);
        }
    }

    /// A streaming analysis of command line `line_no` starts: it is stopped at once if
    /// a later line was already read or input has ended.
    pub(crate) fn begin_stream(&self, line_no: u64) {
        self.stream_of.store(line_no, Ordering::SeqCst);
        if self.read.load(Ordering::SeqCst) > line_no || self.ended.load(Ordering::SeqCst) {
            self.stop.store(true, Ordering::SeqCst);
        }
    }

    /// The search of a streaming analysis is over.
    pub(crate) fn end_stream(&self) {
        self.stream_of.store(NO_STREAM, Ordering::SeqCst);
        self.settle();
    }

    /// A `stop` line was handled.
    pub(crate) fn interrupt_handled(&self) {
        // Never below zero: the reader counted this line before the loop got it.
        let _ = self
            .pending_interrupts
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
        self.settle();
    }

    /// The stop flag stays set only while a `stop` read is still to be handled
    /// (it concerns the commands before it). Cleared first, then set again if needed, so
    /// that an interrupt read meanwhile is never lost.
    fn settle(&self) {
        self.stop.store(false, Ordering::SeqCst);
        if self.pending_interrupts.load(Ordering::SeqCst) > 0 {
            self.stop.store(true, Ordering::SeqCst);
        }
    }
}

/// True for a command line (anything that gets a reply).
pub(crate) fn is_command(line: &RawLine) -> bool {
    !matches!(parse_line(line), Parsed::Empty)
}

/// True for the line that interrupts a running search or perft: `stop`. `quit` is not one:
/// it runs in its turn, after the commands read before it (a script that ends with `quit`,
/// as GTP scripts do, gets its `generate_move` searched in full); what has no bound (a
/// streaming analysis, pondering) ends at any command line, `quit` included.
pub(crate) fn interrupts(line: &RawLine) -> bool {
    matches!(parse_line(line), Parsed::Command { name, .. } if name == "stop")
}

/// A line read, with whether it interrupts a search and when it was read, or the read
/// error that ended input.
pub(crate) type ReadLine = io::Result<(RawLine, bool, Instant)>;

/// Starts the thread that reads `input` line by line, telling `state` about each command
/// line and about the end of input; it ends at end of input, on a read error or when the
/// receiver is gone. Fails when the system refuses the thread.
pub(crate) fn spawn_reader<R: BufRead + Send + 'static>(
    mut input: R,
    state: Arc<InputState>,
) -> Result<mpsc::Receiver<ReadLine>, crate::thread::SpawnError> {
    let (tx, rx) = mpsc::sync_channel(READ_AHEAD);
    crate::thread::spawn("protocol input", move || {
        loop {
            let mut line = RawLine::default();
            let message = match read_line(&mut input, &mut line) {
                Ok(false) => {
                    state.input_ended();
                    return;
                }
                Ok(true) => {
                    // Stamped before anything else: the command's time runs from here,
                    // however long it then waits for the command loop.
                    let read_at = Instant::now();
                    let interrupting = interrupts(&line);
                    if is_command(&line) {
                        state.line_read(interrupting);
                    }
                    Ok((line, interrupting, read_at))
                }
                Err(e) => {
                    state.input_ended();
                    Err(e)
                }
            };
            let failed = message.is_err();
            if tx.send(message).is_err() || failed {
                return;
            }
        }
    })?;
    Ok(rx)
}
