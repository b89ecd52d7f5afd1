//! Game records: the one owner of the records format of `tests/data/copenhagen.csv`, one
//! game per line,
//!
//! ```text
//! moves,attacker_captures,defender_captures,result
//! d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2 timeout,1,0,Black
//! ```
//!
//! `moves` holds record moves separated by spaces (`g3-e3xe2`: the move and each square it
//! captured), optionally ending with `timeout` (the side to move lost on time); the
//! attackers move first, from the start position. The capture counts are the numbers of
//! capture suffixes each side wrote (the archive sometimes lists a square twice, and counts
//! it twice). `result` is `Black` (attackers won), `White` (defenders won), `Draw` or
//! `Ongoing`.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::bitboard::BitboardOf;
use super::excerpt::excerpt;
use super::game::{GameOf, PlyOf};
use super::geometry::{Geometry, S11};
use super::notation::{RecordError, RecordMoveOf, RecordTokenOf};
use super::outcome::{Outcome, Status};
use super::position::{IllegalMoveOf, PositionOf};
use super::role::{ByRole, Role};
use super::rules::RuleSet;

/// The word of the result field for a game's result (`None`: the game goes on; the format
/// names the winner and no reason): `Black` (the attackers won), `White` (the defenders
/// won), `Draw` or `Ongoing`.
pub const fn result_word(result: Option<Outcome<()>>) -> &'static str {
    match result {
        None => "Ongoing",
        Some(Outcome { winner, .. }) => match winner {
            Some(Role::Attacker) => "Black",
            Some(Role::Defender) => "White",
            None => "Draw",
        },
    }
}

/// Reads the result field (one of the words of [`result_word`]).
pub(crate) fn parse_result(word: &str) -> Result<Option<Outcome<()>>, GameRecordError> {
    let finished = |winner| Some(Outcome { winner, reason: () });
    [
        finished(Some(Role::Attacker)),
        finished(Some(Role::Defender)),
        finished(None),
        None,
    ]
    .into_iter()
    .find(|&r| result_word(r) == word)
    .ok_or_else(|| GameRecordError::Result(excerpt(word)))
}

/// The result field for a game with this status.
pub fn result_of(status: Status) -> Option<Outcome<()>> {
    status.outcome().map(Outcome::without_reason)
}

/// Why a record line could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GameRecordError {
    /// Not four comma-separated fields.
    #[error(
        "a game record has 4 comma-separated fields (moves,attacker_captures,defender_captures,result), this line has {0}"
    )]
    Fields(usize),
    /// A token of the moves field is neither a record move nor `timeout`.
    #[error("ply {ply} ({token}): {source}")]
    Token {
        /// The ply, from 1.
        ply: usize,
        /// The token (shortened).
        token: String,
        /// What is wrong with it.
        source: RecordError,
    },
    /// `timeout` before the last token.
    #[error("ply {ply} (timeout): timeout must be the last token")]
    TimeoutNotLast {
        /// The ply, from 1.
        ply: usize,
    },
    /// A capture count is not a number.
    #[error("invalid {} capture count '{text}': expected a number", .role.plural())]
    CountSyntax {
        /// Whose count.
        role: Role,
        /// The field (shortened).
        text: String,
    },
    /// A capture count differs from the capture suffixes of that side's moves.
    #[error(
        "the {} capture count is {field}, but their moves list {listed} captures", .role.plural()
    )]
    CountMismatch {
        /// Whose count.
        role: Role,
        /// The number in the field.
        field: u32,
        /// The capture suffixes of that side's moves.
        listed: u32,
    },
    /// An unknown result.
    #[error("invalid result '{0}': expected Black, White, Draw or Ongoing")]
    Result(String),
}

/// Why a record does not replay under the rules.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReplayErrorOf<G: Geometry> {
    /// A move is illegal (or the game was already over).
    #[error("ply {ply} ({token}): {source}")]
    Illegal {
        /// The ply, from 1.
        ply: usize,
        /// The record move.
        token: String,
        /// Why the rules refuse it.
        source: IllegalMoveOf<G>,
    },
    /// A move lists captures, and they are not the move's.
    #[error(
        "ply {ply} ({token}): the record lists captures {}, the move captures {}",
        squares(*.listed), squares(*.actual)
    )]
    Captures {
        /// The ply, from 1.
        ply: usize,
        /// The record move.
        token: String,
        /// The captures the record lists.
        listed: BitboardOf<G>,
        /// The captures the move makes.
        actual: BitboardOf<G>,
    },
    /// The final `timeout` after the end of the game.
    #[error("ply {ply} (timeout): {source}")]
    Timeout {
        /// The ply, from 1.
        ply: usize,
        /// Why the rules refuse it.
        source: IllegalMoveOf<G>,
    },
}

fn squares<G: Geometry>(b: BitboardOf<G>) -> String {
    if b.is_empty() {
        return "none".into();
    }
    b.into_iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A game record of the 11x11 board.
pub type GameRecord = GameRecordOf<S11>;

/// One game of a records file (or the moves of a game on any board: the format has no
/// board size, the reader knows it).
///
/// ```
/// use hnefi::core::rules::RuleSet;
/// use hnefi::core::outcome::Outcome;
/// use hnefi::core::record::GameRecord;
/// use hnefi::core::role::Role;
/// let line = "d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2 timeout,1,0,Black";
/// let record: GameRecord = line.parse().unwrap();
/// assert_eq!((record.moves.len(), record.timeout), (5, true));
/// assert_eq!(record.result, Some(Outcome::win(Role::Attacker, ())));
/// assert_eq!(record.to_string(), line);
/// let game = record.replay(RuleSet::default()).unwrap();
/// assert_eq!(GameRecord::from_game(&game, record.result), record);
/// assert!("d1-d3,0,1,Black".parse::<GameRecord>().is_err()); // no capture listed
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameRecordOf<G: Geometry> {
    /// The moves with the captures they list.
    pub moves: Vec<RecordMoveOf<G>>,
    /// The record ends with `timeout`: the side to move after the moves lost on time.
    pub timeout: bool,
    /// The result field: `None` for `Ongoing`, else the winner (`None` for a draw); the
    /// format names no reason.
    pub result: Option<Outcome<()>>,
}

impl<G: Geometry> GameRecordOf<G> {
    /// Reads a moves field alone (record moves, optionally a final `timeout`); the result
    /// is `Ongoing` (`None`).
    pub fn from_moves(field: &str) -> Result<GameRecordOf<G>, GameRecordError> {
        Ok(GameRecordOf::read_moves(field)?.0)
    }

    /// Reads a moves field; also returns the capture suffixes written by each side
    /// (the attackers moving first, as in the records file).
    fn read_moves(field: &str) -> Result<(GameRecordOf<G>, ByRole<u32>), GameRecordError> {
        let tokens: Vec<&str> = field.split_whitespace().collect();
        let mut record = GameRecordOf {
            moves: Vec::with_capacity(tokens.len()),
            timeout: false,
            result: None,
        };
        let mut listed = ByRole::<u32>::default();
        let mut mover = Role::Attacker;
        for (i, &text) in tokens.iter().enumerate() {
            let ply = i + 1;
            let token =
                RecordTokenOf::<G>::parse(text).map_err(|source| GameRecordError::Token {
                    ply,
                    token: excerpt(text),
                    source,
                })?;
            match token {
                RecordTokenOf::Timeout if ply == tokens.len() => record.timeout = true,
                RecordTokenOf::Timeout => return Err(GameRecordError::TimeoutNotLast { ply }),
                RecordTokenOf::Move(m) => {
                    let suffixes = text.matches(['x', 'X']).count();
                    *listed.get_mut(mover) += u32::try_from(suffixes).unwrap_or(u32::MAX);
                    record.moves.push(m);
                    mover = mover.opponent();
                }
            }
        }
        Ok((record, listed))
    }

    /// The record of `game` (moves with their captures, a final `timeout` for a loss on
    /// time, resignations left out) with the result `result`. The format has no position
    /// field: the record means what it says only for a game from the start position.
    pub fn from_game(game: &GameOf<G>, result: Option<Outcome<()>>) -> GameRecordOf<G> {
        let mut record = GameRecordOf {
            moves: Vec::with_capacity(game.plies().len()),
            timeout: false,
            result,
        };
        for ply in game.plies() {
            match *ply {
                PlyOf::Move { mv, captured } => record.moves.push(RecordMoveOf {
                    mv,
                    captures: captured,
                }),
                PlyOf::Timeout(_) => record.timeout = true,
                PlyOf::Resign(_) => {}
            }
        }
        record
    }

    /// The number of pieces each side captured, as the moves list them (the attackers
    /// moving first, as in the records file).
    pub(crate) fn captures(&self) -> ByRole<u32> {
        let mut counts = ByRole::<u32>::default();
        for (i, m) in self.moves.iter().enumerate() {
            let mover = if i % 2 == 0 {
                Role::Attacker
            } else {
                Role::Defender
            };
            *counts.get_mut(mover) += m.captures.count();
        }
        counts
    }

    /// The moves field: the moves and a final `timeout`, separated by spaces.
    pub fn moves_field(&self) -> String {
        let mut tokens: Vec<String> = self.moves.iter().map(|m| m.to_string()).collect();
        if self.timeout {
            tokens.push("timeout".into());
        }
        tokens.join(" ")
    }

    /// Plays the record from the start position under `rules`: every move must be legal
    /// and, where the record lists captures, capture exactly those; a final `timeout`
    /// ends the game on time. The result field is not checked (records end by
    /// resignations too, which they do not write).
    pub fn replay(&self, rules: RuleSet) -> Result<GameOf<G>, ReplayErrorOf<G>> {
        self.replay_from(PositionOf::start(), rules)
    }

    /// Plays the record as [`GameRecordOf::replay`] does, from `start` (a variant's start
    /// position, whose side to move plays the first move).
    pub(crate) fn replay_from(
        &self,
        start: PositionOf<G>,
        rules: RuleSet,
    ) -> Result<GameOf<G>, ReplayErrorOf<G>> {
        let mut game = GameOf::from_position(start, rules);
        for (i, m) in self.moves.iter().enumerate() {
            let ply = i + 1;
            let actual = game.play(m.mv).map_err(|source| ReplayErrorOf::Illegal {
                ply,
                token: m.to_string(),
                source,
            })?;
            if m.captures.any() && m.captures != actual {
                return Err(ReplayErrorOf::Captures {
                    ply,
                    token: m.to_string(),
                    listed: m.captures,
                    actual,
                });
            }
        }
        if self.timeout {
            let loser = game.to_move();
            game.lose_on_time(loser)
                .map_err(|source| ReplayErrorOf::Timeout {
                    ply: self.moves.len() + 1,
                    source,
                })?;
        }
        Ok(game)
    }
}

impl<G: Geometry> FromStr for GameRecordOf<G> {
    type Err = GameRecordError;

    /// Reads one line (without its newline). The capture counts must equal the capture
    /// suffixes each side wrote.
    fn from_str(line: &str) -> Result<GameRecordOf<G>, GameRecordError> {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let [moves, attacker, defender, result] = fields.as_slice() else {
            return Err(GameRecordError::Fields(fields.len()));
        };
        let (mut record, listed) = GameRecordOf::<G>::read_moves(moves)?;
        for (role, text) in [(Role::Attacker, attacker), (Role::Defender, defender)] {
            let field: u32 = text.parse().map_err(|_| GameRecordError::CountSyntax {
                role,
                text: excerpt(text),
            })?;
            let listed = *listed.get(role);
            if field != listed {
                return Err(GameRecordError::CountMismatch {
                    role,
                    field,
                    listed,
                });
            }
        }
        record.result = parse_result(result)?;
        Ok(record)
    }
}

impl<G: Geometry> fmt::Display for GameRecordOf<G> {
    /// One line, without its newline; each capture listed once.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let counts = self.captures();
        write!(
            f,
            "{},{},{},{}",
            self.moves_field(),
            counts.attacker,
            counts.defender,
            result_word(self.result)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_field() {
        let e = |s: &str| s.parse::<GameRecord>().unwrap_err().to_string();
        assert!(e("h1-h3,0,0").contains("this line has 3"));
        assert_eq!(
            e("h1-h3 h3-q3,0,0,Draw"),
            "ply 2 (h3-q3): invalid square 'q3': expected a file a..k and a rank 1..11, like f6"
        );
        assert_eq!(
            e("timeout h1-h3,0,0,Draw"),
            "ply 1 (timeout): timeout must be the last token"
        );
        assert_eq!(
            e("h1-h3,x,0,Draw"),
            "invalid attackers capture count 'x': expected a number"
        );
        assert_eq!(
            e("h1-h3 f4-i4xi3xi3,0,1,Draw"),
            "the defenders capture count is 1, but their moves list 2 captures"
        );
        assert_eq!(
            e("h1-h3,0,0,white"),
            "invalid result 'white': expected Black, White, Draw or Ongoing"
        );
    }

    #[test]
    fn empty_moves_and_duplicate_suffixes() {
        let r: GameRecord = ",0,0,White".parse().unwrap();
        assert!(r.moves.is_empty() && !r.timeout);
        assert_eq!(r.to_string(), ",0,0,White");
        // A square listed twice counts twice in the field, once in the capture set.
        let r: GameRecord = "d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2xe2,2,0,Ongoing"
            .parse()
            .unwrap();
        assert_eq!(
            r.captures(),
            ByRole::new_with(|r| u32::from(r == Role::Attacker))
        );
        assert_eq!(
            r.to_string(),
            "d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2,1,0,Ongoing"
        );
    }

    #[test]
    fn replay_checks_listed_captures() {
        let r = GameRecord::from_moves("d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe4").unwrap();
        assert_eq!(
            r.replay(RuleSet::default()).unwrap_err().to_string(),
            "ply 5 (g3-e3xe4): the record lists captures e4, the move captures e2"
        );
        let r = GameRecord::from_moves("d1-d3 d3-d4").unwrap();
        assert_eq!(
            r.replay(RuleSet::default()).unwrap_err().to_string(),
            "ply 2 (d3-d4): no defender piece on d3"
        );
    }
}
