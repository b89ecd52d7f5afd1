//! The search on every board and rule family: from random positions of random games of
//! each family on each of its sizes, every move the search returns is legal in the game
//! (the rules' moves less what the repetition rule bans), and where the mover has a move
//! that wins at once under the rules, the search finds a win in one and plays a winning
//! move.

use std::sync::atomic::AtomicBool;

use hnefi::core::game::GameOf;
use hnefi::core::geometry::{BoardSize, S7, S9, S11, S13, S15};
use hnefi::core::outcome::{Outcome, Status};
use hnefi::core::position::PositionOf;
use hnefi::core::preset::RulePreset;
use hnefi::core::rng::SplitMix64;
use hnefi::search::{Limits, Score, SearchGeometry, Searcher};

/// The moves of `game` that win it at once for the side to move.
fn winning_moves<G: SearchGeometry>(game: &GameOf<G>) -> Vec<hnefi::core::moves::MoveOf<G>> {
    let mover = game.to_move();
    game.legal_moves()
        .iter()
        .copied()
        .filter(|&mv| {
            let mut after = game.clone();
            after.play(mv).is_ok()
                && matches!(after.status(), Status::Over(Outcome { winner: Some(winner), .. }) if winner == mover)
        })
        .collect()
}

/// Searches `game` to depth 2 and checks the move and the score; true when the mover
/// had a win in one.
fn check<G: SearchGeometry>(searcher: &mut Searcher, game: &GameOf<G>, what: &str) -> bool {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(2),
        ..Limits::default()
    };
    searcher.clear();
    let r = searcher.search(game, &limits, &stop, &mut |_| {});
    let legal = game.legal_moves();
    let Some(best) = r.best else {
        assert!(legal.is_empty(), "{what}: no move, {} legal", legal.len());
        return false;
    };
    assert!(legal.contains(&best), "{what}: {best} is not legal");
    assert!(
        game.position().legal_moves(&game.rules()).contains(&best),
        "{what}: {best} is not a move of the rules"
    );
    let wins = winning_moves(game);
    if !wins.is_empty() {
        assert_eq!(
            r.score,
            Score::Win(1),
            "{what}: wins {wins:?}, played {best}"
        );
        assert!(wins.contains(&best), "{what}: wins {wins:?}, played {best}");
        true
    } else {
        assert!(
            !matches!(r.score, Score::Win(1)),
            "{what}: a win in one claimed with {best}, none there"
        );
        false
    }
}

/// Random games of `preset` on the board of `G`: the search is asked at a few random
/// plies of each and at the last position before the game ended. Returns the positions
/// searched and those with a win in one among them.
fn family<G: SearchGeometry>(preset: RulePreset, games: usize, seed: u64) -> (usize, usize) {
    let Some(size) = BoardSize::ALL.into_iter().find(|s| s.files() == G::SIZE) else {
        panic!("no size {}", G::SIZE);
    };
    let Ok(variant) = preset.variant(size) else {
        return (0, 0);
    };
    let Ok(start) = variant.start_board::<G>() else {
        panic!("{preset} {size}: no start");
    };
    let (mut searched, mut won) = (0, 0);
    let mut rng = SplitMix64::new(seed);
    let mut searcher = Searcher::new(1, 1);
    for g in 0..games {
        let mut game =
            GameOf::<G>::from_position(PositionOf::new(start, variant.first()), variant.rules());
        let mut ply = 0;
        while !game.status().is_over() {
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            if rng.below(12) == 0 {
                searched += 1;
                won += usize::from(check(
                    &mut searcher,
                    &game,
                    &format!("{preset} {size} game {g} ply {ply}"),
                ));
            }
            // A position with a win in one for the mover.
            let wins = winning_moves(&game);
            if !wins.is_empty() && rng.below(3) == 0 {
                searched += 1;
                won += usize::from(check(
                    &mut searcher,
                    &game,
                    &format!("{preset} {size} game {g} ply {ply} (win)"),
                ));
                break;
            }
            let Some(&mv) = legal.as_slice().get(rng.below(legal.len())) else {
                break;
            };
            if game.play(mv).is_err() {
                panic!("{preset} {size}: {mv} refused");
            }
            ply += 1;
        }
    }
    (searched, won)
}

#[test]
fn the_search_plays_legal_moves_and_takes_wins_in_one_on_every_board() {
    for (i, preset) in RulePreset::ALL.into_iter().enumerate() {
        let seed = 100 + i as u64;
        let counts = [
            family::<S7>(preset, 12, seed),
            family::<S9>(preset, 8, seed),
            family::<S11>(preset, 6, seed),
            family::<S13>(preset, 4, seed),
            family::<S15>(preset, 3, seed),
        ];
        let searched: usize = counts.iter().map(|c| c.0).sum();
        let won: usize = counts.iter().map(|c| c.1).sum();
        // Each family's games reach positions with a win in one, and others.
        assert!(
            won > 0 && searched > won,
            "{preset}: {won} wins of {searched}"
        );
    }
}
