//! The judgement of a move by the drop in the mover's win chance it caused, as chess sites
//! classify moves: the one owner of the thresholds.
//!
//! The drop is the mover's win chance after the engine's best move less the chance after
//! the move played (each from 0 to 1, [`super::win_chance`]). Lichess judges with 0.1, 0.2
//! and 0.3 on its winning chances from -1 to 1, twice ours; its numbers are taken here on
//! our scale from 0 to 1, half as strict, while the win chance is a provisional logistic
//! and not a fitted model. And as lichess calls a move that lets a forced mate in a
//! blunder whatever the evaluation said before it, a move into a proven loss that the
//! best move avoided is one here: the attackers' searches of Copenhagen score most
//! positions far below 0 (their weights are not the defenders'), where the logistic gives
//! them little win chance to lose.

use std::fmt;

use crate::core::geometry::BoardSize;
use crate::search::Score;

use super::win_chance::win_chance;

/// The drop in the mover's win chance from the best move's score to the played move's
/// (none below 0) and its judgement.
///
/// ```
/// use hnefi::core::geometry::BoardSize;
/// use hnefi::search::Score;
/// use hnefi::tools::annotate::judgement::{Judgement, judge};
/// let size = BoardSize::S11;
/// assert_eq!(judge(Score::Cp(10), Score::Cp(20), size), (0.0, None));
/// assert_eq!(judge(Score::Win(1), Score::Cp(0), size), (0.5, Some(Judgement::Blunder)));
/// // A proven loss let in is a blunder, however little chance there was to lose.
/// let (drop, judgement) = judge(Score::Cp(-1500), Score::Loss(2), size);
/// assert!(drop < 0.1 && judgement == Some(Judgement::Blunder));
/// assert_eq!(judge(Score::Loss(6), Score::Loss(2), size), (0.0, None));
/// ```
pub fn judge(best: Score, played: Score, size: BoardSize) -> (f64, Option<Judgement>) {
    let drop = (win_chance(best, size) - win_chance(played, size)).max(0.0);
    let proven_loss_let_in = matches!(played, Score::Loss(_)) && !matches!(best, Score::Loss(_));
    let judgement = if proven_loss_let_in {
        Some(Judgement::Blunder)
    } else {
        Judgement::of_drop(drop)
    };
    (drop, judgement)
}

/// What a move that lost win chance is called.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgement {
    /// A drop of 0.1 or more.
    Inaccuracy,
    /// A drop of 0.2 or more.
    Mistake,
    /// A drop of 0.3 or more.
    Blunder,
}

impl Judgement {
    /// Every judgement, the mildest first.
    pub const ALL: [Judgement; 3] = [
        Judgement::Inaccuracy,
        Judgement::Mistake,
        Judgement::Blunder,
    ];

    /// The least drop in win chance that earns this judgement.
    pub const fn threshold(self) -> f64 {
        match self {
            Judgement::Inaccuracy => 0.1,
            Judgement::Mistake => 0.2,
            Judgement::Blunder => 0.3,
        }
    }

    /// The judgement of a drop in win chance, if it earns one.
    ///
    /// ```
    /// use hnefi::tools::annotate::judgement::Judgement;
    /// assert_eq!(Judgement::of_drop(0.05), None);
    /// assert_eq!(Judgement::of_drop(0.1), Some(Judgement::Inaccuracy));
    /// assert_eq!(Judgement::of_drop(0.25), Some(Judgement::Mistake));
    /// assert_eq!(Judgement::of_drop(1.0), Some(Judgement::Blunder));
    /// ```
    pub fn of_drop(drop: f64) -> Option<Judgement> {
        Judgement::ALL
            .into_iter()
            .rev()
            .find(|j| drop >= j.threshold())
    }

    /// Its name in the annotation.
    pub const fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }

    /// Its name for a count of them (`2 blunders`).
    pub const fn plural(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracies",
            Judgement::Mistake => "mistakes",
            Judgement::Blunder => "blunders",
        }
    }
}

impl fmt::Display for Judgement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
