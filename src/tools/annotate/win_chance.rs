//! The mover's chance to win from a search's score: the one owner of that mapping until the
//! win/draw/loss model of issue 62 (part 1) is fitted; that model replaces this file.
//!
//! Provisional: a logistic of the centi-unit score, `1 / (1 + e^(-K · score))`, with the
//! scale `K` of the training code's expected score (`sigmoid(K · score)`, which `hnefi
//! tune` and `hnefi train` fit to self-play results) as docs/experiments.md records the
//! fits per board. It is symmetric (the two sides' chances add up to 1, a draw being half
//! of each) and has no offset: the defenders' advantage that the fits measure in self-play
//! differs from the players' games the annotations are for. Proven results (the search's
//! `win N`, `loss N`) are certainty.

use crate::core::geometry::BoardSize;
use crate::search::Score;

/// The logistic's scale for a board, per centi-unit: the latest fits of docs/experiments.md
/// (11x11: session 28's, on its self-play games; 7x7 and 13x13: session 23's). 9x9 and
/// 15x15 have no fit and take the nearest board's that has one.
fn scale(size: BoardSize) -> f64 {
    match size {
        BoardSize::S7 => 0.0108,
        BoardSize::S9 | BoardSize::S11 => 0.002559,
        BoardSize::S13 | BoardSize::S15 => 0.000526,
    }
}

/// The chance, from 0 to 1, that the side whose score this is wins (a draw counting half).
///
/// ```
/// use hnefi::core::geometry::BoardSize;
/// use hnefi::search::Score;
/// use hnefi::tools::annotate::win_chance::win_chance;
/// let size = BoardSize::S11;
/// assert_eq!(win_chance(Score::Cp(0), size), 0.5);
/// assert_eq!(win_chance(Score::Win(3), size), 1.0);
/// assert_eq!(win_chance(Score::Loss(2), size), 0.0);
/// let (ahead, behind) = (win_chance(Score::Cp(300), size), win_chance(Score::Cp(-300), size));
/// assert!(ahead > 0.6 && (ahead + behind - 1.0).abs() < 1e-12);
/// ```
pub fn win_chance(score: Score, size: BoardSize) -> f64 {
    match score {
        Score::Win(_) => 1.0,
        Score::Loss(_) => 0.0,
        Score::Cp(c) => 1.0 / (1.0 + (-scale(size) * f64::from(c)).exp()),
    }
}
