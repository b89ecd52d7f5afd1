//! Perft's last-ply count from the four orientations of the board (core::oriented) against
//! the move generator, on random games of every rule family and board size: the count
//! of a position, the orientations after each move, and the count after each move.

use proptest::prelude::*;

use hnefi::core::geometry::{BoardSize, Geometry};
use hnefi::core::movegen;
use hnefi::core::oriented::Orientations;
use hnefi::core::position::PositionOf;
use hnefi::core::preset::RulePreset;
use hnefi::core::rules::RuleSet;

/// Plays the moves picked by `choices` from `start` under `rules`, checking every
/// position on the way and every move from it.
fn check_game<G: Geometry>(start: PositionOf<G>, rules: &RuleSet, choices: &[u16]) {
    let mut pos = start;
    for &c in choices {
        let board = pos.board();
        let role = pos.to_move();
        let oriented = Orientations::of(board);
        assert_eq!(
            oriented.count_moves(board, role, rules),
            movegen::count_moves(board, role, rules),
            "count of\n{pos:?}"
        );
        let moves = pos.legal_moves(rules);
        let counter = oriented.leaf_counter(board, role, rules);
        for &mv in moves.iter() {
            let mut child = pos;
            let effect = child.play_unchecked(mv, rules);
            let after = oriented.after(role, mv, effect.captured.0);
            assert_eq!(after, Orientations::of(child.board()), "{mv} from\n{pos:?}");
            assert_eq!(
                counter.count(&oriented, mv, effect.captured.0, child.board(), rules),
                movegen::count_moves(child.board(), child.to_move(), rules),
                "count after {mv} from\n{pos:?}"
            );
        }
        let Some(&mv) = moves.get(usize::from(c) % moves.len().max(1)) else {
            return;
        };
        if pos.play_unchecked(mv, rules).win.is_some() {
            return;
        }
    }
}

/// [`check_game`] from the start of `family`'s game on `size`.
fn check_family(family: RulePreset, size: BoardSize, choices: &[u16]) {
    let variant = family.variant(size).expect("a size of the family");
    let rules = variant.rules();
    hnefi::with_size!(size, G => {
        let start = variant.start_position::<G>().expect("the family's start");
        check_game::<G>(start, &rules, choices);
    });
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn oriented_counts_equal_the_move_generator_on_every_family_and_size(
        choices in proptest::collection::vec(any::<u16>(), 0..160),
    ) {
        for family in RulePreset::ALL {
            for &size in family.sizes() {
                check_family(family, size, &choices);
            }
        }
    }
}
