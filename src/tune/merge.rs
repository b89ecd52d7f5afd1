//! `hnefi merge OUT IN...`: the shards of a self-play run (text or binary, one game) in
//! one binary file ([`record`](super::record)), in the order given, each game renumbered
//! `shard * 2^20 + game` (the shard its place among the inputs, from 0) so that games of
//! two shards never share a number, and each position kept once.
//!
//! A duplicate is a sample whose position (board and side to move) has the Zobrist hash
//! of a sample kept before; the first is kept with its own result, score and game, and
//! the duplicates are dropped with theirs (docs/selfplay-at-scale.md says why). The set
//! of kept hashes is the merge's memory: 8 bytes and a control byte a kept position,
//! in a table of up to twice as many slots, about 1.2 GB at 10^8 positions.

use std::collections::HashSet;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;

use super::record::{BinWriter, WriteError};
use super::sample::SampleGame;
use super::sample_file::{SampleFile, SampleFileError};
use crate::core::geometry::Geometry;
use crate::outln;

/// The flags of `hnefi merge`.
#[derive(Args, Debug, Clone)]
pub struct MergeArgs {
    /// The merged file (binary; overwritten).
    pub(crate) out: PathBuf,
    /// The shards, text or binary, in shard order.
    #[arg(required = true, num_args = 1..)]
    pub(crate) shards: Vec<PathBuf>,
}

/// A shard's game numbers are below this: the merged number is `shard * GAMES + game`.
pub const GAMES: u64 = 1 << 20;
/// The most shards a merge takes: the merged numbers stay within a record's `u32`.
pub(crate) const SHARDS: usize = 1 << 12;

/// Why shards cannot be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// A shard cannot be read, or is not of the others' game.
    #[error(transparent)]
    Read(#[from] SampleFileError),
    /// More shards than game numbers.
    #[error("{0} shards, at most {SHARDS} merge into one file")]
    Shards(usize),
    /// A game number a shard cannot have.
    #[error("{path}: game number {game}, a shard's are below {GAMES} (is it a merged file?)")]
    Game {
        /// The shard.
        path: String,
        /// The number.
        game: u64,
    },
    /// The merged file cannot be written.
    #[error("cannot write {path}: {error}")]
    Write {
        /// The merged file.
        path: String,
        /// Why.
        error: WriteError,
    },
}

/// What a merge did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Merged {
    /// The game of the samples.
    pub(crate) game: SampleGame,
    /// Samples read.
    pub read: u64,
    /// Samples written.
    pub kept: u64,
    /// Samples dropped as duplicates.
    pub duplicates: u64,
}

/// Runs `hnefi merge`.
pub fn main(args: &MergeArgs) -> ExitCode {
    super::exit_code(run(args))
}

fn run(args: &MergeArgs) -> Result<(), String> {
    let clock = Instant::now();
    let m = merge(&args.shards, &args.out).map_err(|e| e.to_string())?;
    outln!(
        "merge: {} shards of {}: {} samples read, {} kept, {} duplicates dropped, in {:.1} s; written to {}",
        args.shards.len(),
        m.game,
        m.read,
        m.kept,
        m.duplicates,
        clock.elapsed().as_secs_f64(),
        args.out.display()
    );
    Ok(())
}

/// Merges `shards` into `out`. The game is the first shard's that has samples; a shard
/// of another game is refused when it is reached, and the file made so far removed.
pub fn merge(shards: &[PathBuf], out: &std::path::Path) -> Result<Merged, MergeError> {
    if shards.len() > SHARDS {
        return Err(MergeError::Shards(shards.len()));
    }
    let mut game = None;
    for path in shards {
        game = SampleFile::open(path)?.game();
        if game.is_some() {
            break;
        }
    }
    let game = game.unwrap_or(SampleGame::COPENHAGEN);
    let merged = crate::with_size!(game.size, G => merge_on::<G>(shards, out, game));
    if merged.is_err() {
        let _ = std::fs::remove_file(out);
    }
    merged
}

fn merge_on<G: Geometry>(
    shards: &[PathBuf],
    out: &std::path::Path,
    game: SampleGame,
) -> Result<Merged, MergeError> {
    let name = out.display().to_string();
    let write_error = |error: WriteError| MergeError::Write {
        path: name.clone(),
        error,
    };
    let file = std::fs::File::create(out).map_err(|e| write_error(e.into()))?;
    let mut writer =
        BinWriter::new(std::io::BufWriter::new(file), game).map_err(|e| write_error(e.into()))?;
    let mut seen = HashSet::new();
    let mut merged = Merged {
        game,
        read: 0,
        kept: 0,
        duplicates: 0,
    };
    for (shard, path) in shards.iter().enumerate() {
        let f = SampleFile::open(path)?;
        if let Some(other) = f.game()
            && other != game
        {
            return Err(SampleFileError::Mixed {
                place: f.path().to_string(),
                first: game.to_string(),
                other: other.to_string(),
            }
            .into());
        }
        for sample in f.samples::<G>() {
            let mut sample = sample?;
            merged.read += 1;
            if sample.game >= GAMES {
                return Err(MergeError::Game {
                    path: f.path().to_string(),
                    game: sample.game,
                });
            }
            if !seen.insert(sample.position.hash()) {
                merged.duplicates += 1;
                continue;
            }
            sample.game += shard as u64 * GAMES;
            writer.write(&sample).map_err(write_error)?;
            merged.kept += 1;
        }
    }
    writer.finish().map_err(|e| write_error(e.into()))?;
    Ok(merged)
}
