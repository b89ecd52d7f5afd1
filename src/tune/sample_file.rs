//! A file of samples of one game in either format: text, one line a sample
//! ([`SampleOf`]'s), or binary ([`record`](super::record)), told apart by the binary
//! magic. The one reader of
//! `hnefi train` and `hnefi merge`, and the one writer of `hnefi selfplay`, `hnefi
//! label` and `hnefi merge`.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use crate::core::geometry::Geometry;

use super::record::{self, BinWriter, BinarySampleError, WriteError};
use super::sample::{SampleGame, SampleOf};

/// The format a command writes its samples in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    /// One line of text a sample.
    #[default]
    Text,
    /// The binary records of src/tune/record.rs.
    Bin,
}

/// Why a sample file cannot be read, or files read together.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SampleFileError {
    /// A file cannot be read.
    #[error("cannot read {path}: {message}")]
    Read {
        /// The file.
        path: String,
        /// The system's reason.
        message: String,
    },
    /// A line is not a sample.
    #[error("{path} line {line}: {message}")]
    Line {
        /// The file.
        path: String,
        /// The line's number, from 1.
        line: usize,
        /// Why.
        message: String,
    },
    /// A binary file's header or record is not one.
    #[error("{path}: {error}")]
    Record {
        /// The file.
        path: String,
        /// Why.
        error: BinarySampleError,
    },
    /// Samples of two games: one network, or one merged file, is of one game.
    #[error(
        "{place}: a sample of {other} where the samples before are of {first}; a network or a merged file is of one game's samples"
    )]
    Mixed {
        /// The file, and the line's number for a text file.
        place: String,
        /// The game of the first sample.
        first: String,
        /// The game of this one.
        other: String,
    },
}

enum Content {
    Text(String),
    Bin(Vec<u8>),
}

/// A sample file's content, read whole, and its one game.
pub struct SampleFile {
    path: String,
    /// The game of its samples (`None` when it has none).
    game: Option<SampleGame>,
    content: Content,
}

impl SampleFile {
    /// Reads `path`, binary if it starts with the magic, else text whose every line must
    /// be a sample line of one game.
    pub fn open(path: &Path) -> Result<SampleFile, SampleFileError> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| SampleFileError::Read {
            path: name.clone(),
            message: e.to_string(),
        })?;
        if record::is_binary(&bytes) {
            let header = record::Header::read(&bytes).map_err(|error| SampleFileError::Record {
                path: name.clone(),
                error,
            })?;
            return Ok(SampleFile {
                path: name,
                game: (header.count > 0).then_some(header.game),
                content: Content::Bin(bytes),
            });
        }
        let text = String::from_utf8(bytes).map_err(|e| SampleFileError::Read {
            path: name.clone(),
            message: format!("neither a binary sample file nor text ({e})"),
        })?;
        let mut game = None;
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let this = SampleGame::of_line(line).map_err(|e| SampleFileError::Line {
                path: name.clone(),
                line: n + 1,
                message: e.to_string(),
            })?;
            match game {
                None => game = Some(this),
                Some(first) if first != this => {
                    return Err(SampleFileError::Mixed {
                        place: format!("{name} line {}", n + 1),
                        first: first.to_string(),
                        other: this.to_string(),
                    });
                }
                Some(_) => {}
            }
        }
        Ok(SampleFile {
            path: name,
            game,
            content: Content::Text(text),
        })
    }

    /// The file's name as given.
    pub(crate) fn path(&self) -> &str {
        &self.path
    }

    /// The game of the file's samples, `None` when it has none.
    pub(crate) fn game(&self) -> Option<SampleGame> {
        self.game
    }

    /// The file's samples on board `G` (the board of its [`game`](Self::game)), in
    /// order, each or the first error.
    pub fn samples<G: Geometry>(
        &self,
    ) -> Box<dyn Iterator<Item = Result<SampleOf<G>, SampleFileError>> + '_> {
        let record_error = |error| SampleFileError::Record {
            path: self.path.clone(),
            error,
        };
        match &self.content {
            Content::Bin(bytes) => match record::records::<G>(bytes) {
                Ok(records) => Box::new(records.map(move |r| r.map_err(record_error))),
                Err(e) => Box::new(std::iter::once(Err(record_error(e)))),
            },
            Content::Text(text) => Box::new(
                text.lines()
                    .enumerate()
                    .filter(|(_, line)| !line.trim().is_empty())
                    .map(|(n, line)| {
                        line.parse::<SampleOf<G>>()
                            .map_err(|e| SampleFileError::Line {
                                path: self.path.clone(),
                                line: n + 1,
                                message: e.to_string(),
                            })
                    }),
            ),
        }
    }
}

/// The one game of the samples of `files` (Copenhagen 11x11 when they have none), or
/// the first file whose game differs.
pub(crate) fn one_game(files: &[SampleFile]) -> Result<SampleGame, SampleFileError> {
    let mut first: Option<SampleGame> = None;
    for f in files {
        let Some(game) = f.game else {
            continue;
        };
        match first {
            None => first = Some(game),
            Some(g) if g != game => {
                return Err(SampleFileError::Mixed {
                    place: f.path.clone(),
                    first: g.to_string(),
                    other: game.to_string(),
                });
            }
            Some(_) => {}
        }
    }
    Ok(first.unwrap_or(SampleGame::COPENHAGEN))
}

/// A file being written in one format.
pub(crate) enum SampleWriter {
    /// Lines.
    Text(BufWriter<File>),
    /// Records.
    Bin(BinWriter<BufWriter<File>>),
}

impl SampleWriter {
    /// Creates (or overwrites) `path` for samples of `game` in `format`.
    pub(crate) fn create(
        path: &Path,
        format: Format,
        game: SampleGame,
    ) -> std::io::Result<SampleWriter> {
        let out = BufWriter::new(File::create(path)?);
        Ok(match format {
            Format::Text => SampleWriter::Text(out),
            Format::Bin => SampleWriter::Bin(BinWriter::new(out, game)?),
        })
    }

    /// Writes one sample.
    pub(crate) fn write<G: Geometry>(&mut self, s: &SampleOf<G>) -> Result<(), WriteError> {
        match self {
            SampleWriter::Text(out) => Ok(writeln!(out, "{s}")?),
            SampleWriter::Bin(out) => out.write(s),
        }
    }

    /// Finishes the file (a binary header's count) and flushes it.
    pub(crate) fn finish(self) -> std::io::Result<()> {
        match self {
            SampleWriter::Text(mut out) => out.flush(),
            SampleWriter::Bin(out) => out.finish().map(|_| ()),
        }
    }
}
