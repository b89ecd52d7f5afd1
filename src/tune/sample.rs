//! One training sample: a position, the side to move, the result of the game it came
//! from and the search's score. One line of text each:
//!
//! ```text
//! /3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ attacker defenders 12 7
//! ```
//!
//! that is `POSITION TO_MOVE RESULT SCORE GAME`: the OpenTafl position, `attacker` or
//! `defender`, `defenders`, `attackers` or `draw` (who won the game), the search's score
//! in centi-units for the side to move, and the number of the game (so that a held-out
//! split can keep whole games apart).

use std::fmt;
use std::str::FromStr;

use crate::core::game::RuleSet;
use crate::core::moves::Move;
use crate::core::notation::{position_from_opentafl, to_opentafl};
use crate::core::position::{Position, Status};
use crate::core::role::Role;
use crate::search::eval::{escape_lines, king_capturable};

/// Who won the game a sample came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The defenders won.
    Defenders,
    /// The attackers won.
    Attackers,
    /// A draw.
    Draw,
}

impl Outcome {
    /// The result of a game with this status (a game not over counts as a draw).
    pub fn of(status: Status) -> Outcome {
        match status {
            Status::Won {
                winner: Role::Defender,
                ..
            } => Outcome::Defenders,
            Status::Won {
                winner: Role::Attacker,
                ..
            } => Outcome::Attackers,
            _ => Outcome::Draw,
        }
    }

    /// The defenders' score: 1, 0 or one half.
    pub fn defender_score(self) -> f64 {
        match self {
            Outcome::Defenders => 1.0,
            Outcome::Attackers => 0.0,
            Outcome::Draw => 0.5,
        }
    }

    /// The result's word in a sample line.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Defenders => "defenders",
            Outcome::Attackers => "attackers",
            Outcome::Draw => "draw",
        }
    }
}

/// Whether `pos`, whose search chose `best`, is quiet enough for a static evaluation to
/// judge, and so a sample: not when the best move captures or wins, the king sees a
/// corner (the attackers must block) or can be captured right now.
pub fn is_quiet(pos: &Position, best: Move, rules: RuleSet) -> bool {
    let board = pos.board();
    let mut child = *pos;
    let captured = child.make_move(best, &rules);
    captured.is_empty()
        && child.win_after_move(best.to, &rules).is_none()
        && escape_lines(board) == 0
        && !(pos.to_move() == Role::Attacker && king_capturable(board))
}

/// A sampled position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The position (with its side to move).
    pub position: Position,
    /// The game's result.
    pub outcome: Outcome,
    /// The search's score for the side to move, in centi-units.
    pub score: i32,
    /// The number of the game.
    pub game: u64,
}

impl Sample {
    /// The search's score from the defenders' point of view.
    pub fn defenders_score(&self) -> i32 {
        match self.position.to_move() {
            Role::Defender => self.score,
            Role::Attacker => -self.score,
        }
    }

    /// Whether the sample is held out of a fit that holds out the games whose number is a
    /// multiple of `every` (0: none).
    pub fn is_held_out(&self, every: u64) -> bool {
        every > 0 && self.game.is_multiple_of(every)
    }
}

/// The samples of a file, one a line (blank lines skipped), or the first bad line's
/// error with the file's name and the line's number.
pub fn read_samples(path: &std::path::Path) -> Result<Vec<Sample>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(n, line)| {
            line.parse()
                .map_err(|e| format!("{} line {}: {e}", path.display(), n + 1))
        })
        .collect()
}

/// A line that is not a [`Sample`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected POSITION TO_MOVE RESULT SCORE GAME ({0})")]
pub struct SampleError(String);

impl fmt::Display for Sample {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {} {}",
            to_opentafl(self.position.board()),
            self.position.to_move(),
            self.outcome.name(),
            self.score,
            self.game
        )
    }
}

impl FromStr for Sample {
    type Err = SampleError;

    /// ```
    /// use hnefi::tune::sample::{Outcome, Sample};
    /// let line = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ attacker draw -3 9";
    /// let s: Sample = line.parse().unwrap();
    /// assert_eq!(s.outcome, Outcome::Draw);
    /// assert_eq!(s.to_string(), line);
    /// assert!("/11/ attacker draw 0 1".parse::<Sample>().is_err());
    /// ```
    fn from_str(line: &str) -> Result<Sample, SampleError> {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [board, to_move, outcome, score, game] = fields[..] else {
            return Err(SampleError(format!("{} fields instead of 5", fields.len())));
        };
        let to_move: Role = to_move
            .parse()
            .map_err(|_| SampleError(format!("bad side to move {to_move:?}")))?;
        let position = position_from_opentafl(board, to_move)
            .map_err(|e| SampleError(format!("bad position: {e}")))?;
        let outcome = match outcome {
            "defenders" => Outcome::Defenders,
            "attackers" => Outcome::Attackers,
            "draw" => Outcome::Draw,
            _ => return Err(SampleError(format!("bad result {outcome:?}"))),
        };
        let score = score
            .parse()
            .map_err(|_| SampleError(format!("bad score {score:?}")))?;
        let game = game
            .parse()
            .map_err(|_| SampleError(format!("bad game number {game:?}")))?;
        Ok(Sample {
            position,
            outcome,
            score,
            game,
        })
    }
}
