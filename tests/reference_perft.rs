//! Perft counts of the hnefatafl.org server's 7x7 and 13x13 games (`hnefatafl-org`,
//! docs/RULES.md section 16) counted with the reference engine `hnefatafl-text-protocol`
//! 6.4.1 (`tests/data/hnefatafl_org_7x7_perft.txt`, `tests/data/hnefatafl_org_13x13_perft.txt`;
//! source and method in their headers). The engine is not needed: its counts are data.
//!
//! Each position is given by its moves from the start. hnefi must play them (all legal
//! under the server's rules), reach the board and side to move written beside them with
//! the game going on, agree with the engine on which first moves end the game and for
//! whom, and count the same perft at every depth.

use hnefi::core::game::GameOf;
use hnefi::core::geometry::{BoardSize, Geometry, S7, S13};
use hnefi::core::movegen;
use hnefi::core::moves::MoveOf;
use hnefi::core::outcome::{Outcome, Status};
use hnefi::core::perft::perft;
use hnefi::core::position::IllegalMoveOf;
use hnefi::core::preset::RulePreset;
use hnefi::core::role::Role;

/// One position of a data file, as far as it has been read.
#[derive(Default)]
struct Block<'a> {
    id: &'a str,
    moves: Vec<&'a str>,
    board: Option<&'a str>,
    to_move: Option<Role>,
    /// The first moves after which the engine's game was over: (attackers won, defenders
    /// won, drawn).
    endings: Option<(usize, usize, usize)>,
    perft: Vec<(u32, u64)>,
}

fn read_blocks<'a>(name: &str, text: &'a str) -> Vec<Block<'a>> {
    let mut out = Vec::new();
    for chunk in text.split("\n\n") {
        let mut b = Block::default();
        for line in chunk.lines().filter(|l| !l.starts_with('#')) {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words[..] {
                ["id", i] => b.id = i,
                ["moves", ref rest @ ..] => b.moves.extend_from_slice(rest),
                ["board", rows] => b.board = Some(rows),
                ["to-move", r] => b.to_move = Some(r.parse().expect("role")),
                ["endings", "attackers", a, "defenders", d, "draws", n] => {
                    let count = |s: &str| s.parse::<usize>().expect("count");
                    b.endings = Some((count(a), count(d), count(n)));
                }
                ["perft", d, n] => {
                    b.perft
                        .push((d.parse().expect("depth"), n.parse().expect("count")));
                }
                [] => {}
                _ => panic!("{name}: bad line: {line}"),
            }
        }
        if !b.id.is_empty() {
            out.push(b);
        }
    }
    out
}

/// Checks every position of one file; returns the number of perft counts checked.
fn check<G: Geometry>(name: &str, text: &str, size: BoardSize) -> usize {
    let variant = RulePreset::HnefataflOrg
        .variant(size)
        .expect("the server's game of this size");
    let rules = variant.rules();
    let start = variant.start_position::<G>().expect("the start position");
    let blocks = read_blocks(name, text);
    let ids = text.lines().filter(|l| l.starts_with("id ")).count();
    assert_eq!(blocks.len(), ids, "{name}: positions read");
    let mut checked = 0;
    for b in &blocks {
        let id = b.id;
        let mut game = GameOf::from_position(start, rules);
        for m in &b.moves {
            let mv: MoveOf<G> = m
                .parse()
                .unwrap_or_else(|e| panic!("{name} {id}: {m}: {e}"));
            game.play(mv)
                .unwrap_or_else(|e| panic!("{name} {id}: {m}: {e}"));
        }
        assert_eq!(
            game.status(),
            Status::Ongoing,
            "{name} {id}: the game is over"
        );
        let pos = *game.position();
        let rows = pos.board().to_rows().join("/");
        assert_eq!(Some(rows.as_str()), b.board, "{name} {id}: the board");
        assert_eq!(
            Some(pos.to_move()),
            b.to_move,
            "{name} {id}: the side to move"
        );
        // The engine's verdict after each first move, against the server's rules in hnefi
        // (moves its repetition rule refuses have no verdict: the data has none of them).
        let want = b
            .endings
            .unwrap_or_else(|| panic!("{name} {id}: no endings line"));
        let mut got = (0, 0, 0);
        for &mv in movegen::legal_moves(pos.board(), pos.to_move(), &rules).iter() {
            let mut after = game.clone();
            match after.play(mv) {
                Ok(_) => {}
                Err(IllegalMoveOf::Repetition(_)) => continue,
                Err(e) => panic!("{name} {id}: {mv}: {e}"),
            }
            match after.status() {
                Status::Ongoing => {}
                Status::Over(Outcome {
                    winner: Some(Role::Attacker),
                    ..
                }) => got.0 += 1,
                Status::Over(Outcome {
                    winner: Some(Role::Defender),
                    ..
                }) => got.1 += 1,
                Status::Over(Outcome { winner: None, .. }) => got.2 += 1,
            }
        }
        assert_eq!(got, want, "{name} {id}: first moves that end the game");
        assert!(!b.perft.is_empty(), "{name} {id}: no count");
        for &(depth, count) in &b.perft {
            assert_eq!(
                perft(&pos, depth, &rules),
                count,
                "{name} {id} perft {depth}"
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn seven_by_seven_counts_match_the_reference_engine() {
    let checked = check::<S7>(
        "hnefatafl_org_7x7_perft.txt",
        include_str!("data/hnefatafl_org_7x7_perft.txt"),
        BoardSize::S7,
    );
    assert!(checked >= 15, "only {checked} counts");
}

#[test]
fn thirteen_by_thirteen_counts_match_the_reference_engine() {
    let checked = check::<S13>(
        "hnefatafl_org_13x13_perft.txt",
        include_str!("data/hnefatafl_org_13x13_perft.txt"),
        BoardSize::S13,
    );
    assert!(checked >= 12, "only {checked} counts");
}
