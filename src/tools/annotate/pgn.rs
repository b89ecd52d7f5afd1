//! hnefatafl.org's game records as a player has them: the PGN file its client exports
//! from a finished game ("Export PGN File", hnefatafl-copenhagen 6.4.1).
//!
//! The export has a few tag lines, `[Name "value"]` (`Event` the server's game number,
//! `Site` hnefatafl.org, `Date` when the server has it), then the moves in turns:
//! `1. h1h3 g5g2 2. h3h2 ...`, each the origin square and the destination joined with
//! nothing between them, the attackers first. The client writes the files in small
//! letters on 7x7 and 11x11 and in capitals on 13x13; it writes no captures, no
//! resignation and no result, and does not say the board's size. hnefi reads the moves
//! on the board `--board-size` gives, else 13x13 when they have capitals, else 11x11; the
//! rules are `--rules`, else hnefatafl.org's when the `Site` tag names it.
//!
//! The moves may run over several lines (a file written by hand); turn numbers (`12.`)
//! and PGN's result marks (`1-0`, `0-1`, `1/2-1/2`, `*`) are skipped. A file may hold
//! several games: a tag line after moves starts the next one.

use thiserror::Error;

use crate::core::bitboard::BitboardOf;
use crate::core::geometry::{BoardSize, Geometry};
use crate::core::moves::MoveOf;
use crate::core::notation::RecordMoveOf;

use super::written::{Notation, WrittenGame, WrittenMove};

/// The site the client writes in its `Site` tag.
const SITE: &str = "hnefatafl.org";

/// Why a move of an export cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub(crate) enum PgnMoveError {
    /// Not two squares of the board joined (`h1h3`).
    #[error("not a move of hnefatafl.org's export (two squares joined, like h1h3) on {0}x{0}")]
    Syntax(u8),
}

/// The games of an export, in the order written.
pub(crate) fn games(text: &str) -> Vec<WrittenGame<'_>> {
    let mut games: Vec<WrittenGame<'_>> = Vec::new();
    let mut in_moves = false;
    for (line, text) in (1..).zip(text.lines()) {
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        if text.starts_with('[') {
            if in_moves || games.is_empty() {
                games.push(WrittenGame {
                    line,
                    moves: Vec::new(),
                    notation: Notation::HnefataflOrg,
                    result: None,
                });
                in_moves = false;
            }
            continue;
        }
        in_moves = true;
        let Some(game) = games.last_mut() else {
            continue;
        };
        for word in text.split_whitespace() {
            if !super::written::is_turn_number(word)
                && !matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*")
            {
                game.moves.push(WrittenMove { line, text: word });
            }
        }
    }
    games
}

/// Whether the export says it comes from hnefatafl.org (its `Site` tag).
pub(crate) fn from_hnefatafl_org(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .filter_map(|l| l.strip_prefix("[Site "))
        .any(|rest| rest.trim_end_matches(']').trim().trim_matches('"') == SITE)
}

/// The board an export's moves are on when no `--board-size` says it: 13x13 when the
/// files are capitals (the client writes them so on 13x13 only), else 11x11.
pub(crate) fn board_of(games: &[WrittenGame<'_>]) -> BoardSize {
    let capitals = games
        .iter()
        .flat_map(|g| &g.moves)
        .any(|m| m.text.bytes().any(|b| b.is_ascii_uppercase()));
    if capitals {
        BoardSize::S13
    } else {
        BoardSize::S11
    }
}

/// Reads a move of the export (`h1h3`, `A10C10`) on the board of `G`; the export lists
/// no captures.
pub(crate) fn parse_move<G: Geometry>(token: &str) -> Result<RecordMoveOf<G>, PgnMoveError> {
    let err = || PgnMoveError::Syntax(G::SIZE);
    // The destination starts at the second letter.
    let split = token
        .char_indices()
        .skip(1)
        .find(|(_, c)| c.is_ascii_alphabetic())
        .map(|(i, _)| i)
        .ok_or_else(err)?;
    let (from, to) = (token.get(..split), token.get(split..));
    let (Some(from), Some(to)) = (from, to) else {
        return Err(err());
    };
    let mv: MoveOf<G> = format!("{from}-{to}").parse().map_err(|_| err())?;
    Ok(RecordMoveOf {
        mv,
        captures: BitboardOf::EMPTY,
    })
}

#[cfg(test)]
mod examples {
    //! The examples of this file's documentation, as unit tests: the items they show are
    //! the crate's own, which a doctest (another crate) cannot reach.

    #[test]
    fn games() {
        use crate::tools::annotate::pgn::games;
        let text = "[Event \"Game 12\"]\n[Site \"hnefatafl.org\"]\n1. h1h3 g5g2 2. h3h2\n";
        let games = games(text);
        assert_eq!(games.len(), 1);
        let moves: Vec<&str> = games[0].moves.iter().map(|m| m.text).collect();
        assert_eq!(moves, ["h1h3", "g5g2", "h3h2"]);
        assert_eq!((games[0].line, games[0].moves[0].line), (1, 3));
    }

    #[test]
    fn from_hnefatafl_org() {
        use crate::tools::annotate::pgn::from_hnefatafl_org;
        assert!(from_hnefatafl_org(
            "[Event \"Game 3\"]\n[Site \"hnefatafl.org\"]\n1. h1h3"
        ));
        assert!(!from_hnefatafl_org("[Site \"playtafl.com\"]\n1. h1h3"));
    }

    #[test]
    fn parse_move() {
        use crate::core::geometry::{S11, S13};
        use crate::tools::annotate::pgn::parse_move;
        assert_eq!(parse_move::<S11>("h1h3").unwrap().to_string(), "h1-h3");
        assert_eq!(parse_move::<S13>("A10C10").unwrap().to_string(), "a10-c10");
        assert!(parse_move::<S11>("h1-h3").is_err());
        assert!(parse_move::<S11>("h1").is_err());
        assert!(parse_move::<S11>("m1m3").is_err());
    }
}
