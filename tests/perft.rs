//! Every count of `tests/data/perft.txt` (a copy of the rules' perft reference file),
//! read as data: adding a position is adding a block of text.

use hnefi::core::notation::parse_rows;
use hnefi::core::perft::{divide, perft};
use hnefi::core::position::Position;
use hnefi::core::role::Role;
use hnefi::core::rules::RuleSet;

struct Entry {
    id: String,
    pos: Position,
    counts: Vec<(u32, u64)>,
}

fn entries() -> Vec<Entry> {
    let text = include_str!("data/perft.txt");
    let mut out = Vec::new();
    for block in text.split("\n\n") {
        let mut id = None;
        let mut board = None;
        let mut to_move = Role::Attacker;
        let mut counts = Vec::new();
        for line in block
            .lines()
            .map(|l| l.split('#').next().unwrap_or("").trim())
        {
            let mut words = line.split_whitespace();
            match (words.next(), words.next(), words.next()) {
                (Some("id"), Some(name), None) => id = Some(name.to_string()),
                (Some("board"), Some(b), None) => board = Some(parse_rows(b).expect("board")),
                (Some("to-move"), Some(r), None) => to_move = r.parse().expect("role"),
                (Some("perft"), Some(d), Some(n)) => {
                    counts.push((d.parse().expect("depth"), n.parse().expect("count")))
                }
                (None, _, _) => {}
                _ => panic!("bad perft line: {line}"),
            }
        }
        if let (Some(id), Some(board)) = (id, board) {
            out.push(Entry {
                id,
                pos: Position::new(board, to_move),
                counts,
            });
        }
    }
    out
}

#[test]
fn perft_counts_match() {
    let all = entries();
    // Every block of the file was read: as many positions as `id` lines.
    let blocks = include_str!("data/perft.txt")
        .lines()
        .filter(|l| l.split('#').next().unwrap_or("").starts_with("id "))
        .count();
    assert!(blocks > 0, "perft.txt holds no position");
    assert_eq!(all.len(), blocks, "positions read from perft.txt");
    let mut checked = 0;
    for e in &all {
        for &(depth, want) in &e.counts {
            assert_eq!(
                perft(&e.pos, depth, &RuleSet::default()),
                want,
                "{} perft {depth}",
                e.id
            );
            checked += 1;
        }
    }
    assert!(checked >= 65, "only {checked} counts checked");
}

#[test]
fn divide_sums_to_perft_and_matches_the_published_subtotals() {
    let start = Position::start();
    let split = divide(&start, 3, &RuleSet::default());
    assert_eq!(split.len(), 116);
    assert_eq!(split.iter().map(|&(_, n)| n).sum::<u64>(), 806_344);
    // Subtotals quoted in perft.txt for perft 5 from the start.
    let d5: std::collections::BTreeMap<String, u64> = divide(&start, 5, &RuleSet::default())
        .into_iter()
        .map(|(mv, n)| (mv.to_string(), n))
        .collect();
    assert_eq!(d5.len(), 116);
    assert_eq!(d5.get("d1-b1"), Some(&54_487_050));
    assert_eq!(d5.get("f2-f3"), Some(&50_977_342));
    assert_eq!(d5.values().sum::<u64>(), 6_116_568_016);
}
