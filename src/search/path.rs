//! The search path for the repetition rule: the game's positions since its last capture
//! (from [`Game::history`](crate::core::game::Game::history)) with the positions of the
//! current path pushed on top, judged by the core's one owner of the rule,
//! [`PositionHistory::judge`].

use std::marker::PhantomData;

use crate::core::bitboard::BitboardOf;
use crate::core::game::GameOf;
use crate::core::geometry::Geometry;
use crate::core::history::PositionHistory;
use crate::core::moves::MoveOf;
use crate::core::position::PositionOf;
use crate::core::repetition::{RepetitionMode, Verdict};

/// The positions from the game's last capture to the node being searched, on boards of
/// geometry `G`.
#[derive(Clone, Debug)]
pub(crate) struct SearchPath<G: Geometry> {
    history: PositionHistory,
    /// The index of the root in `history`.
    root: usize,
    mode: RepetitionMode,
    board: PhantomData<G>,
}

impl<G: Geometry> SearchPath<G> {
    /// The path at the current position of `game`, under the game's repetition rule.
    pub(crate) fn new(game: &GameOf<G>) -> SearchPath<G> {
        let history = game.history().since_irreversible();
        SearchPath {
            root: history.len().saturating_sub(1),
            history,
            mode: game.rules().repetition,
            board: PhantomData,
        }
    }

    /// The rule's verdict on `mv` from `before`, the position at `ply` (the path up to
    /// `ply` is what [`SearchPath::push`] recorded), which captured `captured` and led to
    /// `after`.
    #[inline(always)]
    pub(crate) fn judge(
        &mut self,
        ply: usize,
        before: &PositionOf<G>,
        mv: MoveOf<G>,
        captured: BitboardOf<G>,
        after: &PositionOf<G>,
    ) -> Verdict {
        if !self.mode.restricts(before.to_move()) {
            return Verdict::Allowed;
        }
        self.history.truncate(self.root + ply + 1);
        self.history.judge(self.mode, before, mv, captured, after)
    }

    /// Records `pos`, reached at `ply` (at least 1) from the position at `ply - 1`;
    /// `irreversible` when the move captured (or was a null move).
    #[inline(always)]
    pub(crate) fn push(&mut self, ply: usize, pos: &PositionOf<G>, irreversible: bool) {
        self.history.truncate(self.root + ply);
        self.history.push(pos, irreversible);
    }
}

#[cfg(test)]
mod tests {
    //! The search's repetition decisions equal the game's and a direct reading of the
    //! rules, in every mode, over random games that repeat positions on purpose.

    use proptest::prelude::*;

    use super::*;
    use crate::core::bitboard::Bitboard;
    use crate::core::game::Game;
    use crate::core::moves::Move;
    use crate::core::outcome::{Outcome, Reason, Status};
    use crate::core::position::Position;
    use crate::core::role::Role;
    use crate::core::rules::RuleSet;

    /// The rule read directly from docs/RULES.md section 8 over every earlier position.
    fn oracle(
        mode: RepetitionMode,
        earlier: &[Position],
        before: &Position,
        mv: Move,
        captured: Bitboard,
        after: &Position,
    ) -> Verdict {
        let defender = before.to_move() == Role::Defender;
        let count = earlier.iter().filter(|p| p.hash() == after.hash()).count();
        match mode {
            RepetitionMode::Off => Verdict::Allowed,
            RepetitionMode::DefenderThirdIllegal
                if defender && captured.is_empty() && count >= 2 =>
            {
                Verdict::Banned
            }
            RepetitionMode::DefenderAnyRepeatIllegal
                if defender
                    && earlier
                        .iter()
                        .any(|p| p.board_hash() == before.moved_board_hash(mv)) =>
            {
                Verdict::Banned
            }
            RepetitionMode::ThirdOccurrenceMoverLoses if captured.is_empty() && count >= 2 => {
                Verdict::MoverLoses
            }
            RepetitionMode::ThirdOccurrenceDraws if captured.is_empty() && count >= 2 => {
                Verdict::Draws
            }
            RepetitionMode::ThirdOccurrenceMoverWins if captured.is_empty() && count >= 2 => {
                Verdict::MoverWins
            }
            RepetitionMode::AnyRepeatIllegal
                if earlier.iter().any(|p| p.board_hash() == after.board_hash()) =>
            {
                Verdict::Banned
            }
            _ => Verdict::Allowed,
        }
    }

    /// A random game under `off` in which, most of the time, a side takes back its
    /// previous move when it can, so positions come back two and three times.
    fn random_game(choices: &[(u8, u16)]) -> Game {
        let mut game = Game::new(RuleSet {
            repetition: RepetitionMode::Off,
            ..RuleSet::default()
        });
        for &(back, pick) in choices {
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            let plies = game.plies();
            let undo = plies
                .len()
                .checked_sub(2)
                .and_then(|i| plies.get(i))
                .and_then(|p| p.mv())
                .map(|mv| Move {
                    from: mv.to,
                    to: mv.from,
                })
                .filter(|m| back % 4 != 0 && legal.contains(m));
            let mv = undo.unwrap_or_else(|| legal[usize::from(pick) % legal.len()]);
            if game.play(mv).is_err() || game.status().is_over() {
                break;
            }
        }
        game
    }

    /// Checks every move of the position at `ply` of `path` against the game and the
    /// oracle.
    fn check_node(
        path: &mut SearchPath<crate::core::geometry::S11>,
        ply: usize,
        game: &Game,
        mode: RepetitionMode,
    ) {
        let mut game = game.clone();
        game.set_rules(RuleSet {
            repetition: mode,
            ..game.rules()
        });
        let pos = *game.position();
        for &mv in pos.legal_moves(&game.rules()).iter() {
            let mut after = pos;
            let captured = after.make_move(mv, &game.rules());
            let searched = path.judge(ply, &pos, mv, captured, &after);
            let expected = oracle(mode, game.positions(), &pos, mv, captured, &after);
            assert_eq!(searched, expected, "{mode} {mv} at ply {ply}");
            let mut played = game.clone();
            match played.play(mv) {
                Err(_) => assert_eq!(searched, Verdict::Banned, "{mode} {mv}"),
                Ok(_) => {
                    assert_ne!(searched, Verdict::Banned, "{mode} {mv}");
                    let repeated = match played.status() {
                        Status::Over(Outcome {
                            winner,
                            reason: Reason::Repetition,
                        }) => Some(winner),
                        _ => None,
                    };
                    let mover = pos.to_move();
                    let expected = match searched {
                        Verdict::MoverLoses => Some(Some(mover.opponent())),
                        Verdict::Draws => Some(None),
                        Verdict::MoverWins => Some(Some(mover)),
                        Verdict::Allowed | Verdict::Banned => None,
                    };
                    let won_otherwise = after.win_after_move(mv.to, &game.rules());
                    assert_eq!(
                        repeated,
                        expected.filter(|_| won_otherwise.is_none()),
                        "{mode} {mv}"
                    );
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn search_decides_repetitions_as_the_game(
            choices in prop::collection::vec((any::<u8>(), any::<u16>()), 8..90),
            split in any::<u16>(),
        ) {
            let full = random_game(&choices);
            let moves: Vec<Move> = full.plies().iter().filter_map(|p| p.mv()).collect();
            // The game up to the root, then the rest as the search path.
            let root_at = usize::from(split) % (moves.len() + 1);
            for mode in RepetitionMode::ALL {
                let mut game = Game::new(RuleSet {
                    repetition: RepetitionMode::Off,
                    ..RuleSet::default()
                });
                for &mv in &moves[..root_at] {
                    game.play(mv).unwrap();
                }
                let mut rooted = game.clone();
                rooted.set_rules(RuleSet { repetition: mode, ..game.rules() });
                let mut path = SearchPath::new(&rooted);
                for (i, &mv) in moves[root_at..].iter().enumerate() {
                    let ply = i;
                    // As in the tree: a sibling's subtree was searched before.
                    let pos = *game.position();
                    if let Some(&other) = pos.legal_moves(&game.rules()).first() {
                        let mut junk = pos;
                        let c = junk.make_move(other, &game.rules());
                        path.push(ply + 1, &junk, c.any());
                        path.push(ply + 2, &pos, false);
                    }
                    check_node(&mut path, ply, &game, mode);
                    let captured = game.play(mv).unwrap();
                    path.push(ply + 1, game.position(), captured.any());
                }
                if !game.status().is_over() {
                    check_node(&mut path, moves.len() - root_at, &game, mode);
                }
            }
        }
    }
}
