//! The judgement of a move by the drop in the mover's expected result it caused, as chess
//! sites classify moves: the one owner of the thresholds.
//!
//! The drop is the mover's expected result (a win 1, a draw one half: the win/draw/loss
//! model of the game, [`WdlModel`]) after the engine's best move less after the move
//! played. Lichess judges with 0.1, 0.2 and 0.3 on its winning chances from -1 to 1, twice
//! ours; its numbers are taken here on our scale from 0 to 1, half as strict. And as
//! lichess calls a move that lets a forced mate in a blunder whatever the evaluation said
//! before it, a move into a proven loss that the best move avoided is one here: a side
//! that was already likely to lose has little chance left to lose.

use std::fmt;

use crate::core::role::Role;
use crate::search::Score;
use crate::search::wdl::WdlModel;

/// The drop in the mover's win chance from the best move's score to the played move's
/// (none below 0) and its judgement.
pub(crate) fn judge(
    best: Score,
    played: Score,
    model: &WdlModel,
    mover: Role,
) -> (f64, Option<Judgement>) {
    let expected = |score| model.chances(score, mover).expected(mover);
    let drop = (expected(best) - expected(played)).max(0.0);
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
pub(crate) enum Judgement {
    /// A drop of 0.1 or more.
    Inaccuracy,
    /// A drop of 0.2 or more.
    Mistake,
    /// A drop of 0.3 or more.
    Blunder,
}

impl Judgement {
    /// Every judgement, the mildest first.
    pub(crate) const ALL: [Judgement; 3] = [
        Judgement::Inaccuracy,
        Judgement::Mistake,
        Judgement::Blunder,
    ];

    /// The least drop in win chance that earns this judgement.
    pub(crate) const fn threshold(self) -> f64 {
        match self {
            Judgement::Inaccuracy => 0.1,
            Judgement::Mistake => 0.2,
            Judgement::Blunder => 0.3,
        }
    }

    /// The judgement of a drop in win chance, if it earns one.
    pub(crate) fn of_drop(drop: f64) -> Option<Judgement> {
        Judgement::ALL
            .into_iter()
            .rev()
            .find(|j| drop >= j.threshold())
    }

    /// Its name in the annotation.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }

    /// Its name for a count of them (`2 blunders`).
    pub(crate) const fn plural(self) -> &'static str {
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

#[cfg(test)]
mod examples {
    //! The examples of this file's documentation, as unit tests: the items they show are
    //! the crate's own, which a doctest (another crate) cannot reach.

    #[test]
    fn judge() {
        use crate::core::geometry::BoardSize;
        use crate::core::preset::RulePreset;
        use crate::core::role::Role;
        use crate::search::Score;
        use crate::search::wdl::WdlModel;
        use crate::tools::annotate::judgement::{Judgement, judge};
        let m = WdlModel::of(RulePreset::Copenhagen, BoardSize::S11);
        let a = Role::Attacker;
        assert_eq!(judge(Score::Cp(10), Score::Cp(20), &m, a), (0.0, None));
        assert_eq!(
            judge(Score::Win(1), Score::Loss(1), &m, a),
            (1.0, Some(Judgement::Blunder))
        );
        // A proven loss let in is a blunder, however little chance there was to lose.
        let (drop, judgement) = judge(Score::Cp(-1500), Score::Loss(2), &m, a);
        assert!(drop < 0.1 && judgement == Some(Judgement::Blunder));
        assert_eq!(judge(Score::Loss(6), Score::Loss(2), &m, a), (0.0, None));
    }

    #[test]
    fn judgement_of_drop() {
        use crate::tools::annotate::judgement::Judgement;
        assert_eq!(Judgement::of_drop(0.05), None);
        assert_eq!(Judgement::of_drop(0.1), Some(Judgement::Inaccuracy));
        assert_eq!(Judgement::of_drop(0.25), Some(Judgement::Mistake));
        assert_eq!(Judgement::of_drop(1.0), Some(Judgement::Blunder));
    }
}
