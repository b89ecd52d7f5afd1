//! Win, draw and loss from a score: the chances a score stands for, as Stockfish's WDL model
//! gives them, fitted per rule family and board from self-play games (`hnefi wdl-fit`,
//! docs/analysis.md).
//!
//! The model is an ordered logistic one on the attackers' view of the score `x`: the
//! attackers win with `σ((x − high) / scale)`, the defenders with `σ((low − x) / scale)`, and
//! the rest is a draw. With `low ≤ high` the three chances are never negative and always add
//! up to one, and the chances of a side are the same whichever side's view the score is
//! given in. A board where the side to move matters gets a pair of thresholds for each side
//! to move. (On Copenhagen 7x7 and Tablut 15x15 the scores did not predict the results of
//! self-play, so those games have the generic model; docs/experiments.md.)

use super::interface::{Score, Wdl};
use crate::core::geometry::BoardSize;
use crate::core::preset::RulePreset;
use crate::core::role::{ByRole, Role};
use crate::core::rules_source::RulesSource;

/// The chances as probabilities (each from 0 to 1, adding up to 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Chances {
    /// The attackers win.
    pub(crate) attackers: f64,
    /// A draw.
    pub(crate) draw: f64,
    /// The defenders win.
    pub(crate) defenders: f64,
}

impl Chances {
    /// The expected result of `side`, from 0 to 1 (a win 1, a draw one half).
    pub(crate) fn expected(&self, side: Role) -> f64 {
        self.win_of(side) + self.draw / 2.0
    }

    /// The chance that `side` wins.
    pub(crate) fn win_of(&self, side: Role) -> f64 {
        match side {
            Role::Attacker => self.attackers,
            Role::Defender => self.defenders,
        }
    }

    /// The chances of `mover` in per mille, rounded so that they add up to 1000.
    pub(crate) fn per_mille(&self, mover: Role) -> Wdl {
        let win = per_mille(self.win_of(mover));
        let loss = per_mille(self.win_of(mover.opponent())).min(1000 - win);
        Wdl {
            win,
            draw: 1000 - win - loss,
            loss,
        }
    }
}

/// `p` (from 0 to 1) in per mille, rounded.
fn per_mille(p: f64) -> u16 {
    // The clamp keeps a NaN or a value out of range from the arithmetic out of the result.
    let p = if p.is_nan() { 0.0 } else { p.clamp(0.0, 1.0) };
    (p * 1000.0).round() as u16
}

/// The logistic function.
pub(crate) fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The two thresholds and the scale of an ordered logistic model, in centi-units of the
/// attackers' view of the score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Thresholds {
    /// Below it the defenders are more likely to win than not.
    pub(crate) low: f64,
    /// Above it the attackers are more likely to win than not.
    pub(crate) high: f64,
    /// How many centi-units make the odds e times larger.
    pub(crate) scale: f64,
}

impl Thresholds {
    /// The chances at `attackers_score` (the attackers' view).
    pub(crate) fn chances(&self, attackers_score: f64) -> Chances {
        let scale = self.scale.max(f64::MIN_POSITIVE);
        let attackers = sigmoid((attackers_score - self.high) / scale);
        let defenders = sigmoid((self.low - attackers_score) / scale);
        // low ≤ high makes the sum at most one; the min keeps rounding from going over.
        let defenders = defenders.min(1.0 - attackers);
        Chances {
            attackers,
            draw: (1.0 - attackers - defenders).max(0.0),
            defenders,
        }
    }
}

/// The WDL model of one game: thresholds for each side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct WdlModel {
    /// The thresholds of the positions each side is to move in.
    pub(crate) by_mover: ByRole<Thresholds>,
}

impl WdlModel {
    /// The model of the family's game on `size`: the fitted one where there is one, a
    /// generic one otherwise.
    pub(crate) fn of(family: RulePreset, size: BoardSize) -> WdlModel {
        FITTED
            .iter()
            .find(|(f, s, _)| *f == family && *s == size)
            .map_or(GENERIC, |(_, _, model)| *model)
    }

    /// The model of the game `source` plays on `size`: a rules string whose rules are a
    /// family's on that board has the family's model.
    pub(crate) fn of_game(source: &RulesSource, size: BoardSize) -> WdlModel {
        let family = source.family().or_else(|| {
            let rules = source.variant(size).ok()?.rules();
            RulePreset::ALL
                .into_iter()
                .find(|p| p.variant(size).is_ok_and(|v| v.rules() == rules))
        });
        family.map_or(GENERIC, |f| WdlModel::of(f, size))
    }

    /// The chances of a position where `mover` is to move and the search says `score`.
    /// A proven result is certain.
    pub(crate) fn chances(&self, score: Score, mover: Role) -> Chances {
        let certain = |winner: Role| Chances {
            attackers: if winner == Role::Attacker { 1.0 } else { 0.0 },
            draw: 0.0,
            defenders: if winner == Role::Defender { 1.0 } else { 0.0 },
        };
        match score {
            Score::Win(_) => certain(mover),
            Score::Loss(_) => certain(mover.opponent()),
            Score::Cp(cp) => {
                let attackers_view = match mover {
                    Role::Attacker => f64::from(cp),
                    Role::Defender => -f64::from(cp),
                };
                self.by_mover.get(mover).chances(attackers_view)
            }
        }
    }

    /// The chances of the side to move, in per mille.
    pub(crate) fn wdl(&self, score: Score, mover: Role) -> Wdl {
        self.chances(score, mover).per_mille(mover)
    }
}

/// The model of a game no fit has seen: even at 0, no draws, a scale of the evaluation's
/// usual spread.
const GENERIC: WdlModel = WdlModel {
    by_mover: ByRole {
        attacker: EVEN,
        defender: EVEN,
    },
};

/// Even at 0, no draws.
const EVEN: Thresholds = Thresholds {
    low: 0.0,
    high: 0.0,
    scale: 200.0,
};

/// The thresholds `low`, `high` and `scale`.
const fn t(low: f64, high: f64, scale: f64) -> Thresholds {
    Thresholds { low, high, scale }
}

/// The model with these thresholds for the attackers and the defenders to move.
const fn model(attacker: Thresholds, defender: Thresholds) -> WdlModel {
    WdlModel {
        by_mover: ByRole { attacker, defender },
    }
}

/// The fitted models (`hnefi wdl-fit`; the runs are in docs/experiments.md). A game is
/// here only where its fit predicted the held-out games better than their frequencies.
const FITTED: &[(RulePreset, BoardSize, WdlModel)] = &[
    (
        RulePreset::Brandubh,
        BoardSize::S7,
        model(t(-96.0, 74.0, 125.0), t(199.0, 367.0, 124.0)),
    ),
    (
        RulePreset::Copenhagen,
        BoardSize::S11,
        model(t(-432.0, 619.0, 325.0), t(347.0, 1173.0, 265.0)),
    ),
    (
        RulePreset::Copenhagen,
        BoardSize::S13,
        model(t(-1603.0, 1942.0, 628.0), t(-312.0, 1928.0, 405.0)),
    ),
    (
        RulePreset::Fetlar,
        BoardSize::S11,
        model(t(-588.0, 1070.0, 524.0), t(200.0, 1511.0, 419.0)),
    ),
    (
        RulePreset::HnefataflOrg,
        BoardSize::S11,
        model(t(-426.0, -31.0, 333.0), t(350.0, 657.0, 269.0)),
    ),
    (
        RulePreset::HnefataflOrg,
        BoardSize::S13,
        model(t(-1761.0, 1875.0, 773.0), t(-412.0, 1887.0, 496.0)),
    ),
    (
        RulePreset::HnefataflOrg,
        BoardSize::S7,
        model(t(82.0, 82.0, 118.0), t(372.0, 372.0, 106.0)),
    ),
    (
        RulePreset::SeaBattle,
        BoardSize::S13,
        model(t(-4023.0, 212.0, 3115.0), t(-1829.0, 905.0, 1836.0)),
    ),
    (
        RulePreset::SeaBattle,
        BoardSize::S9,
        model(t(-345.0, -116.0, 227.0), t(60.0, 301.0, 178.0)),
    ),
    (
        RulePreset::Tablut,
        BoardSize::S9,
        model(t(-117.0, 245.0, 442.0), t(201.0, 501.0, 318.0)),
    ),
    (
        RulePreset::Tawlbwrdd,
        BoardSize::S11,
        model(t(-556.0, -351.0, 382.0), t(78.0, 265.0, 301.0)),
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> WdlModel {
        WdlModel {
            by_mover: ByRole {
                attacker: Thresholds {
                    low: -80.0,
                    high: 40.0,
                    scale: 150.0,
                },
                defender: Thresholds {
                    low: -20.0,
                    high: 60.0,
                    scale: 90.0,
                },
            },
        }
    }

    #[test]
    fn proven_results_are_certain() {
        for mover in [Role::Attacker, Role::Defender] {
            assert_eq!(
                model().wdl(Score::Win(3), mover),
                Wdl {
                    win: 1000,
                    draw: 0,
                    loss: 0
                }
            );
            assert_eq!(
                model().wdl(Score::Loss(2), mover),
                Wdl {
                    win: 0,
                    draw: 0,
                    loss: 1000
                }
            );
        }
    }

    #[test]
    fn the_chances_add_up_and_agree_from_either_side() {
        let m = model();
        for cp in (-3000..=3000).step_by(37) {
            for mover in [Role::Attacker, Role::Defender] {
                let c = m.chances(Score::Cp(cp), mover);
                assert!(
                    (c.attackers + c.draw + c.defenders - 1.0).abs() < 1e-12,
                    "{c:?}"
                );
                assert!(c.attackers >= 0.0 && c.draw >= 0.0 && c.defenders >= 0.0);
                let w = m.wdl(Score::Cp(cp), mover);
                assert_eq!(
                    u32::from(w.win) + u32::from(w.draw) + u32::from(w.loss),
                    1000
                );
                // The mover's win is the other side's loss, in the same position.
                let other = c.per_mille(mover.opponent());
                assert_eq!(w.flipped(), other, "{cp} {mover:?}");
            }
        }
    }

    #[test]
    fn a_better_score_never_lowers_the_movers_chance() {
        let m = model();
        for mover in [Role::Attacker, Role::Defender] {
            let mut last = 0.0;
            for cp in (-2000..=2000).step_by(10) {
                let e = m.chances(Score::Cp(cp), mover).win_of(mover);
                assert!(e >= last, "{cp} {mover:?}");
                last = e;
            }
        }
    }

    #[test]
    fn a_game_without_a_fit_is_even_at_zero() {
        // Fetlar has no 13x13 game, so no fit.
        let w = WdlModel::of(RulePreset::Fetlar, BoardSize::S13).wdl(Score::Cp(0), Role::Attacker);
        assert_ne!(
            WdlModel::of(RulePreset::Copenhagen, BoardSize::S11),
            GENERIC
        );
        assert_eq!(
            w,
            Wdl {
                win: 500,
                draw: 0,
                loss: 500
            }
        );
    }
}
