//! Why a match could not be run (bad flags or files, an engine that does not start):
//! each stops `hnefi match` with exit status 2 before the first game.

use std::io;
use std::path::PathBuf;

use thiserror::Error;

use crate::options::TcError;

use super::openings::OpeningsError;
use super::records::ResumeError;
use super::stats::SprtError;

/// A match that cannot be run.
#[derive(Debug, Error)]
pub(crate) enum MatchError {
    /// A rule family without a game of the board size asked for.
    #[error(transparent)]
    Variant(#[from] crate::core::variant::VariantError),
    /// An engine whose dialect plays 11x11 only, on another board.
    #[error(
        "E{engine} ({spec}) speaks the {dialect} dialect, which plays 11x11 only: it cannot play the {game} game; no game was played"
    )]
    Board {
        /// The engine's number, from 1.
        engine: usize,
        /// Its spec.
        spec: String,
        /// Its dialect's name.
        dialect: &'static str,
        /// The match's game.
        game: String,
    },
    /// A rules string told to an engine whose dialect has no command for it.
    #[error(
        "E{engine} ({spec}) speaks the {dialect} dialect, which cannot be told an OpenTafl rules string (only hnefi engines are, by set_rule rules, and OTEP engines, by rules): it cannot play the {game} game; no game was played"
    )]
    RulesString {
        /// The engine's number, from 1.
        engine: usize,
        /// Its spec.
        spec: String,
        /// Its dialect's name.
        dialect: &'static str,
        /// The match's game.
        game: String,
    },
    /// An OTEP engine on a family's game other than Copenhagen (it is told OpenTafl's
    /// Copenhagen string for a family).
    #[error(
        "E{engine} ({spec}) speaks the otep dialect, which is told OpenTafl's Copenhagen rules string for a rule family: it cannot play the {game} game (give --rules that game's OpenTafl rules string); no game was played"
    )]
    OtepFamily {
        /// The engine's number, from 1.
        engine: usize,
        /// Its spec.
        spec: String,
        /// The match's game.
        game: String,
    },
    /// A rules string's game on another board than its own.
    #[error(transparent)]
    Rules(crate::core::rules_source::RulesSourceError),
    /// A flag a Berserk game does not take: its rules are its string's, and its records
    /// are OpenTafl's notation.
    #[error("{flag} is not played in a Berserk game ({game}): {why}; no game was played")]
    Berserk {
        /// The flag.
        flag: &'static str,
        /// The match's game.
        game: String,
        /// Why not.
        why: &'static str,
    },
    /// An engine command line that does not split into words.
    #[error("invalid --engine '{0}': an unterminated quote or no command")]
    EngineSpec(String),
    /// Fewer than two engines.
    #[error("give --engine at least twice")]
    TooFewEngines,
    /// `--anchor` names no engine.
    #[error("--anchor must be an engine's number, 1 to {0}")]
    Anchor(usize),
    /// `--games` out of range.
    #[error("--games must be 1 to 1000000")]
    Games,
    /// `--concurrency` out of range.
    #[error("--concurrency must be 1 to 256")]
    Concurrency,
    /// Two engines over the TCP relay.
    #[error("only one engine can play over the TCP relay")]
    TooManyTcp,
    /// `--movetime-ms` out of range.
    #[error("--movetime-ms must be from 1 to {}", crate::options::MAX_MOVETIME_MS)]
    MoveTime,
    /// A `--tc` that is not `MIN+INC`.
    #[error("invalid --tc: {0}")]
    Tc(#[from] TcError),
    /// A bad `--engine-tc`.
    #[error(
        "invalid --engine-tc '{0}': expected N=MSms (e.g. 2=62ms) or N=MIN+INC (e.g. 1=1+1), N an engine's number from 1, once per engine"
    )]
    EngineTc(String),
    /// A bad `--sprt`.
    #[error(transparent)]
    Sprt(#[from] SprtError),
    /// `--sprt` with more than two engines.
    #[error("--sprt {0} needs exactly two engines")]
    SprtEngines(String),
    /// A UCI engine without a time control.
    #[error("{0} is a UCI engine: give --movetime-ms or --tc (its go command needs a time)")]
    UciNeedsTime(String),
    /// The openings file cannot be read.
    #[error("cannot read {path}: {source}")]
    ReadOpenings {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The openings file has no usable opening.
    #[error(transparent)]
    Openings(#[from] OpeningsError),
    /// The relay port cannot be bound.
    #[error(
        "cannot listen on 127.0.0.1:{port} for the TCP engine (is another relay running?): {source}"
    )]
    Relay {
        /// The port.
        port: u16,
        /// Why.
        source: io::Error,
    },
    /// `--out` exists and `--resume` is not given.
    #[error("{0} exists: pass --resume to continue it, or choose another --out")]
    OutExists(PathBuf),
    /// `--out` cannot be opened.
    #[error("cannot write {path}: {source}")]
    Open {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// `--resume` refused the records file.
    #[error(transparent)]
    Resume(#[from] ResumeError),
    /// An engine did not start or did not answer its first command properly.
    #[error("{label} ({spec}) {why}; no game was played{}", stderr_note(.stderr))]
    EngineStart {
        /// `E1`, ...
        label: String,
        /// The engine spec.
        spec: String,
        /// What went wrong.
        why: String,
        /// The tail of its stderr.
        stderr: String,
    },
}

fn stderr_note(stderr: &str) -> String {
    if stderr.is_empty() {
        "\nits stderr: (empty)".to_string()
    } else {
        let mut s = String::from("\nits stderr:");
        for line in stderr.lines() {
            s.push_str("\n  ");
            s.push_str(line);
        }
        s
    }
}
