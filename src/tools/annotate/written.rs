//! A game written over several lines, each move with the line it is on, as the readers of
//! hnefatafl.org's PGN export ([`super::pgn`]) and of OpenTafl's records ([`super::otg`])
//! give it to [`super::input`].

use crate::core::outcome::Outcome;

/// A turn's number of a game written in turns (`12.`, as PGN and OpenTafl's records
/// write it for a turn of the principal line).
pub(super) fn is_turn_number(word: &str) -> bool {
    word.strip_suffix('.')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// A move of a game written over several lines, as the file writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WrittenMove<'a> {
    /// Its line in the file, from 1.
    pub(crate) line: usize,
    /// The move's text.
    pub(crate) text: &'a str,
}

/// The notation of a [`WrittenGame`]'s moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Notation {
    /// hnefatafl.org's PGN export: `h1h3` (captures not written).
    HnefataflOrg,
    /// OpenTafl's move records: `g11-g9xh9`, `Kf6-f10`.
    OpenTafl,
}

/// A game written over several lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct WrittenGame<'a> {
    /// The line it starts on, from 1.
    pub(crate) line: usize,
    /// Its moves in the order played.
    pub(crate) moves: Vec<WrittenMove<'a>>,
    /// The notation they are in.
    pub(crate) notation: Notation,
    /// The result the file gives (`None` inside: unknown or none); `None` when the format
    /// has none.
    pub(crate) result: Option<Option<Outcome<()>>>,
}
