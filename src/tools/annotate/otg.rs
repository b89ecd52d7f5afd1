//! OpenTafl's game records (`.otg`, the replays OpenTafl saves and loads; "Game Records"
//! in OpenTafl's notation spec), one game a file.
//!
//! A record opens with tag lines `[name:value]`, among them `rules`, the game's OpenTafl
//! rules string (read with [`parse_rules_string`](crate::core::rules_string::parse_rules_string)
//! through [`RulesSource`](crate::core::rules_source::RulesSource): the game is played on
//! its own board under its own rules, whatever `--rules` and `--board-size` say) and
//! `result` (`1` the attackers won, `-1` the defenders, `0` a draw, `?` anything else).
//! Then come the turns, a line each: the turn number (`12.`) and the moves of the turn in
//! the order played, in OpenTafl's move notation
//! ([`parse_record_move`](crate::protocol::otep::parse_record_move): `g11-g9xh9`,
//! `Kf6-f10`), `---` for a resignation. Commentary is in square brackets after a turn
//! (and may run over lines), and so is a tag's value that runs over lines; both are
//! skipped. A variation's turns (numbers with letters, `2a.1.1a.`) are skipped: the
//! principal line is annotated. A record with a `position` tag (a game from a set
//! position, a puzzle's) is refused: the start is the rules string's.

use thiserror::Error;

use crate::core::outcome::Outcome;
use crate::core::role::Role;

use super::written::{Notation, WrittenGame, WrittenMove};

/// A game record read: its rules string and its principal line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct OtgGame<'a> {
    /// The `rules` tag's value.
    pub(crate) rules: &'a str,
    /// The moves and the result.
    pub(crate) game: WrittenGame<'a>,
}

/// Why a game record cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub(crate) enum OtgError {
    /// No `rules` tag.
    #[error("the OpenTafl game record has no rules tag ([rules:dim:N ... start:...])")]
    NoRules,
    /// A `position` tag.
    #[error(
        "line {0}: the game starts from a set position (a position tag), which annotate does not read"
    )]
    Position(usize),
    /// A `result` tag of another value.
    #[error("line {line}: invalid result '{text}': expected 1, 0, -1 or ?")]
    Result {
        /// The tag's line.
        line: usize,
        /// Its value (shortened).
        text: String,
    },
}

/// Reads a game record.
pub(crate) fn read(text: &str) -> Result<OtgGame<'_>, OtgError> {
    let mut rules = None;
    let mut result = None;
    let mut moves = Vec::new();
    // Inside square brackets that a line opened and did not close.
    let mut bracket = false;
    for (line, raw) in (1..).zip(text.lines()) {
        let text = raw.trim();
        if bracket {
            bracket = !text.ends_with(']');
            continue;
        }
        if let Some(inner) = text.strip_prefix('[') {
            match inner.strip_suffix(']') {
                None => bracket = true,
                // Tags come before the first turn; after it, brackets hold commentary.
                Some(tag) if moves.is_empty() => match tag.split_once(':') {
                    Some(("rules", value)) => rules = Some(value.trim()),
                    Some(("position", _)) => return Err(OtgError::Position(line)),
                    Some(("result", value)) => result = parse_result(value, line)?,
                    _ => {}
                },
                Some(_) => {}
            }
            continue;
        }
        let mut words = text.split_whitespace();
        let Some(number) = words.next() else {
            continue;
        };
        if !super::written::is_turn_number(number) {
            // A variation's turn, or a line of no turn.
            continue;
        }
        for word in words {
            match word {
                "---" => break,
                "....." => {}
                _ => moves.push(WrittenMove { line, text: word }),
            }
        }
    }
    let rules = rules.ok_or(OtgError::NoRules)?;
    Ok(OtgGame {
        rules,
        game: WrittenGame {
            line: 1,
            moves,
            notation: Notation::OpenTafl,
            result,
        },
    })
}

/// The `result` tag's value (`None` for `?`: no result to check).
fn parse_result(value: &str, line: usize) -> Result<Option<Option<Outcome<()>>>, OtgError> {
    match value.trim() {
        "1" => Ok(Some(Some(Outcome::win(Role::Attacker, ())))),
        "-1" => Ok(Some(Some(Outcome::win(Role::Defender, ())))),
        "0" => Ok(Some(Some(Outcome::draw(())))),
        "?" => Ok(None),
        other => Err(OtgError::Result {
            line,
            text: crate::core::excerpt::excerpt(other),
        }),
    }
}

#[cfg(test)]
mod examples {
    //! The examples of this file's documentation, as unit tests: the items they show are
    //! the crate's own, which a doctest (another crate) cannot reach.

    #[test]
    fn read() {
        use crate::tools::annotate::otg::read;
        let text = "[result:-1]\n[rules:dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n\
                    1. d1-c1 d3-f3\n[a comment|on both moves]\n2. a4-a2 ---\n";
        let otg = read(text).unwrap();
        assert_eq!(otg.rules, "dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/");
        let moves: Vec<&str> = otg.game.moves.iter().map(|m| m.text).collect();
        assert_eq!(moves, ["d1-c1", "d3-f3", "a4-a2"]);
        assert_eq!(otg.game.moves[2].line, 6);
    }
}
