//! An annotated game and its text: a header, one line per ply (the move, its score, the
//! engine's best move where it differs with that move's score, the drop in the mover's win
//! chance and its judgement), and a summary per side.

use std::fmt;

use crate::core::outcome::{Outcome, Status};
use crate::core::record::result_word;
use crate::core::role::Role;
use crate::search::Score;
use crate::search::Wdl;

use super::judgement::Judgement;

/// What the annotation says of one ply.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Note {
    /// The ply, from 1.
    pub(crate) ply: usize,
    /// The side that moved.
    pub(crate) side: Role,
    /// The move played, in record notation with the squares it captured (`g3-e3xe2`).
    pub(crate) played: String,
    /// The move's score from the mover's point of view, in the position before it.
    pub(crate) score: Score,
    /// The mover's chances before the move (at the best move's score).
    pub(crate) wdl: Wdl,
    /// The engine's best move (in the same notation) and its score, when the move played
    /// is another.
    pub(crate) best: Option<(String, Score)>,
    /// The mover's win chance after the best move less after the move played (0 when the
    /// move played is the best, or scores better).
    pub(crate) drop: f64,
    /// What the drop earns.
    pub(crate) judgement: Option<Judgement>,
}

/// One game of the file, annotated.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Annotation {
    /// The game's number in the file, from 1.
    pub(crate) number: usize,
    /// Its line in the file, from 1.
    pub(crate) line: usize,
    /// The result field of a records line (`None` inside: `Ongoing`); `None` for a move
    /// list.
    pub(crate) result: Option<Option<Outcome<()>>>,
    /// The game's status after its moves under the rules.
    pub(crate) status: Status,
    /// One note per ply.
    pub(crate) notes: Vec<Note>,
}

/// One side's moves in a game, summed up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Summary {
    /// The side.
    pub(crate) side: Role,
    /// Its moves.
    pub(crate) moves: usize,
    /// The mean drop in win chance of its moves (0 for none).
    pub(crate) average_loss: f64,
    /// How many of its moves earned each judgement, in [`Judgement::ALL`]'s order.
    pub(crate) counts: [usize; 3],
}

impl Annotation {
    /// The summary of `side`'s moves.
    pub(crate) fn summary(&self, side: Role) -> Summary {
        let notes: Vec<&Note> = self.notes.iter().filter(|n| n.side == side).collect();
        let total: f64 = notes.iter().map(|n| n.drop).sum();
        let counts =
            Judgement::ALL.map(|j| notes.iter().filter(|n| n.judgement == Some(j)).count());
        Summary {
            side,
            moves: notes.len(),
            average_loss: if notes.is_empty() {
                0.0
            } else {
                total / notes.len() as f64
            },
            counts,
        }
    }
}

/// The columns of a ply's line, with the header's names.
fn row(f: &mut fmt::Formatter<'_>, cells: [&str; 9]) -> fmt::Result {
    let [
        ply,
        side,
        played,
        score,
        wdl,
        best,
        best_score,
        drop,
        judgement,
    ] = cells;
    let line = format!(
        "{ply:>4}  {side:<8}  {played:<14}  {score:>7}  {wdl:<12}  {best:<14}  {best_score:>7}  {drop:>5}  {judgement}"
    );
    writeln!(f, "{}", line.trim_end())
}

impl fmt::Display for Note {
    /// The ply's line, with its newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (best, best_score) = match &self.best {
            Some((mv, score)) => (mv.clone(), score.to_string()),
            None => ("-".to_string(), "-".to_string()),
        };
        row(
            f,
            [
                &self.ply.to_string(),
                &self.side.to_string(),
                &self.played,
                &self.score.to_string(),
                &format!("{} {} {}", self.wdl.win, self.wdl.draw, self.wdl.loss),
                &best,
                &best_score,
                &format!("{:.2}", self.drop),
                self.judgement.map_or("", Judgement::name),
            ],
        )
    }
}

impl fmt::Display for Summary {
    /// `attacker: 31 moves, average loss 0.042, 2 inaccuracies, 1 mistake, 0 blunders`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let moves = if self.moves == 1 { "move" } else { "moves" };
        write!(
            f,
            "{}: {} {moves}, average loss {:.3}",
            self.side, self.moves, self.average_loss
        )?;
        for (j, n) in Judgement::ALL.into_iter().zip(self.counts) {
            let name = if n == 1 { j.name() } else { j.plural() };
            write!(f, ", {n} {name}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Annotation {
    /// The game's header, its plies and the two summaries, then an empty line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {} (line {}): {} plies",
            self.number,
            self.line,
            self.notes.len()
        )?;
        if let Some(result) = self.result {
            write!(f, ", result {}", result_word(result))?;
        }
        writeln!(f, ", the rules say {}", self.status)?;
        row(
            f,
            [
                "ply",
                "side",
                "move",
                "score",
                "wdl",
                "best",
                "score",
                "drop",
                "judgement",
            ],
        )?;
        for note in &self.notes {
            write!(f, "{note}")?;
        }
        for side in [Role::Attacker, Role::Defender] {
            writeln!(f, "{}", self.summary(side))?;
        }
        writeln!(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_summaries() {
        let note = |ply, side, best: Option<(&str, Score)>, drop| Note {
            ply,
            side,
            played: "h1-h3".into(),
            score: Score::Cp(-40),
            wdl: Wdl {
                win: 120,
                draw: 30,
                loss: 850,
            },
            best: best.map(|(m, s)| (m.to_string(), s)),
            drop,
            judgement: Judgement::of_drop(drop),
        };
        let a = Annotation {
            number: 2,
            line: 5,
            result: Some(Some(Outcome::win(Role::Defender, ()))),
            status: Status::Ongoing,
            notes: vec![
                note(1, Role::Attacker, None, 0.0),
                note(2, Role::Defender, Some(("f4-c4", Score::Win(3))), 0.5),
                note(3, Role::Attacker, Some(("d1-d3", Score::Cp(10))), 0.12),
            ],
        };
        let text = a.to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines,
            [
                "game 2 (line 5): 3 plies, result White, the rules say ongoing",
                " ply  side      move              score  wdl           best              score   drop  judgement",
                "   1  attacker  h1-h3               -40  120 30 850    -                     -   0.00",
                "   2  defender  h1-h3               -40  120 30 850    f4-c4             win 3   0.50  blunder",
                "   3  attacker  h1-h3               -40  120 30 850    d1-d3                10   0.12  inaccuracy",
                "attacker: 2 moves, average loss 0.060, 1 inaccuracy, 0 mistakes, 0 blunders",
                "defender: 1 move, average loss 0.500, 0 inaccuracies, 0 mistakes, 1 blunder",
                "",
            ]
        );
    }
}
