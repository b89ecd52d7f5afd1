//! OpenTafl's mercenaries, guards and berserk rule `ber:m` against OpenTafl itself
//! (docs/RULES.md section 17.10): three rules strings of Berserk's board with mercenaries
//! and guards in the start (`tests/data/opentafl_specials_*.txt`, whose headers say how
//! they were made). Every perft count of OpenTafl's is hnefi's, from the start and from
//! positions of the random games (some in the middle of a berserk turn); every random game
//! replays through hnefi's Berserk game move by move: each move legal, written as OpenTafl
//! wrote it, the same pieces taken (a mercenary changing sides), the turn continuing where
//! it continued, the same ending.

use super::opentafl_berserk::{perft_is_opentafls, recorded, variant};
use hnefi::core::berserk_game::BerserkGameOf;
use hnefi::core::bitboard::BitboardOf;
use hnefi::core::geometry::S11;
use hnefi::core::role::Role;

/// The files of one rules string: its perft counts and its random games.
const FILES: [(&str, &str, &str); 3] = [
    (
        "mercenaries",
        include_str!("data/opentafl_specials_mercenaries_perft.txt"),
        include_str!("data/opentafl_specials_mercenaries_games.txt"),
    ),
    (
        "anymove",
        include_str!("data/opentafl_specials_anymove_perft.txt"),
        include_str!("data/opentafl_specials_anymove_games.txt"),
    ),
    (
        "weakking",
        include_str!("data/opentafl_specials_weakking_perft.txt"),
        include_str!("data/opentafl_specials_weakking_games.txt"),
    ),
];

#[test]
fn specials_perft_is_opentafls() {
    for (name, perft, _) in FILES {
        let checked = perft_is_opentafls(perft);
        assert!(checked >= 30, "{name}: only {checked} counts");
    }
}

/// The record without the driver's `+` and with its captures sorted (hnefi writes them
/// in its own order).
fn normalised(word: &str) -> String {
    let word = word.strip_suffix('+').unwrap_or(word);
    match word.split_once('x') {
        Some((mv, taken)) => {
            let mut t: Vec<&str> = taken.split('/').collect();
            t.sort_unstable();
            format!("{mv}x{}", t.join("/"))
        }
        None => word.to_string(),
    }
}

#[test]
fn specials_games_replay_as_in_opentafl() {
    let (mut games, mut plies, mut turncoats, mut continuations) = (0, 0, 0, 0);
    for (name, _, text) in FILES {
        let v = variant(text);
        for line in text.lines().filter(|l| l.starts_with("game ")) {
            let parts: Vec<&str> = line.split(" | ").collect();
            let [game, count, result, moves] = parts.as_slice() else {
                panic!("bad line {line}");
            };
            let mut g = BerserkGameOf::<S11>::start(&v, v.first()).expect("an 11x11 start");
            let words: Vec<&str> = moves.split_whitespace().collect();
            assert_eq!(
                words.len(),
                count.parse::<usize>().unwrap(),
                "{name} {game}"
            );
            for (i, word) in words.iter().enumerate() {
                let rec = recorded(word);
                let at = format!("{name} {game} ply {} {word}", i + 1);
                assert!(!g.status().is_over(), "{at}: hnefi ended the game before");
                let before = *g.position();
                let ply = g
                    .play(rec.mv)
                    .unwrap_or_else(|e| panic!("{at}: {e}\n{before:?}"));
                let effect = ply.effect;
                assert_eq!(
                    normalised(&ply.record()),
                    normalised(word),
                    "{at}\n{before:?}"
                );
                let mut taken = effect.taken.soldiers;
                if effect.taken.king {
                    taken.insert(before.board().king());
                }
                assert_eq!(taken, rec.taken, "{at}: taken\n{before:?}");
                // The driver marks a continuing turn only in a game that goes on.
                if !g.status().is_over() {
                    assert_eq!(effect.continues, rec.continues, "{at}: turn continues");
                }
                turncoats += (taken & before.specials().mercenaries()).count();
                continuations += usize::from(rec.continued);
                plies += 1;
            }
            let winner = g.status().outcome().map(|o| o.winner);
            match *result {
                "attackers" => assert_eq!(winner, Some(Some(Role::Attacker)), "{name} {game}"),
                "defenders" => assert_eq!(winner, Some(Some(Role::Defender)), "{name} {game}"),
                "draw" => assert_eq!(winner, Some(None), "{name} {game}"),
                "ongoing cap" => assert_eq!(winner, None, "{name} {game}"),
                other => panic!("{name} {game}: result {other}"),
            }
            games += 1;
        }
    }
    println!(
        "{games} games, {plies} plies, {turncoats} mercenaries turned, {continuations} continuations"
    );
    assert!(games >= 180 && turncoats > 0 && continuations > 0);
}

/// The mercenaries and guards of the start are read as such.
#[test]
fn specials_start_has_its_mercenaries_and_guards() {
    let v = variant(FILES[0].2);
    let p = v.position::<S11>().expect("an 11x11 start");
    assert_eq!(p.specials().mercenaries().count(), 7);
    assert_eq!(p.specials().guards().count(), 6);
    assert_eq!(
        p.specials().mercenaries() & p.board().attackers(),
        ["a4", "k4", "e1", "g1"]
            .into_iter()
            .map(|s| s.parse().unwrap())
            .collect::<BitboardOf<S11>>()
    );
}
