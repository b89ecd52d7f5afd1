//! hnefi's `fetlar` rule set against a second implementation it did not write: every game of
//! `tests/data/fetlar_opentafl_games.txt` (random games played under OpenTafl v0.4.8.0b's
//! Fetlar rules) is replayed under `RulePreset::Fetlar.rules()` — every move legal, every
//! capture the same, every ending the same — and every count of
//! `tests/data/fetlar_opentafl_perft.txt` (OpenTafl's move generator) is hnefi's perft.
//! The one deliberate difference, OpenTafl's encirclement win, is docs/RULES.md section 14.

use std::collections::BTreeMap;

use hnefi::core::encirclement::is_encircled;
use hnefi::core::encirclement_mode::EncirclementMode;
use hnefi::core::game::Game;
use hnefi::core::notation::{RecordMove, parse_rows};
use hnefi::core::outcome::{Reason, Status};
use hnefi::core::perft::perft;
use hnefi::core::position::Position;
use hnefi::core::preset::RulePreset;
use hnefi::core::role::Role;
use hnefi::core::rules::RuleSet;

/// The driver's cap: a game stopped there is still on.
const CAP: usize = 300;

/// What OpenTafl's verdict means under hnefi's `fetlar`; `None` for its encirclement win,
/// which hnefi's `fetlar` does not have (the game goes on).
fn expected(result: &str, reason: &str) -> Option<Status> {
    let won = |winner, reason| Some(Status::won(winner, reason));
    match (result, reason) {
        ("ATTACKER_WIN", "king-captured" | "no-defenders") => {
            won(Role::Attacker, Reason::KingCaptured)
        }
        ("DEFENDER_WIN", "king-escaped") => won(Role::Defender, Reason::KingEscaped),
        ("DEFENDER_WIN", "no-attackers") => won(Role::Defender, Reason::NoMoves),
        ("ATTACKER_WIN", "defenders-blocked") => won(Role::Attacker, Reason::NoMoves),
        ("DRAW", "repetition") => Some(Status::drawn(Reason::Repetition)),
        ("ONGOING", "cap") => Some(Status::Ongoing),
        ("ATTACKER_WIN", "encirclement") => None,
        _ => panic!("unknown ending {result} {reason}"),
    }
}

/// Replays one game line; returns (plies, captures, hnefi's ending name) or what differs.
fn replay(line: &str) -> Result<(usize, usize, String), String> {
    let fields: Vec<&str> = line.split(" | ").collect();
    let [name, plies, ending, moves] = fields[..] else {
        return Err(format!("bad line: {line}"));
    };
    let plies: usize = plies
        .parse()
        .map_err(|_| format!("{name}: bad ply count"))?;
    let (result, reason) = ending
        .split_once(' ')
        .ok_or_else(|| format!("{name}: bad ending"))?;
    let mut game = Game::new(RulePreset::Fetlar.rules());
    let mut captures = 0;
    let tokens: Vec<&str> = moves.split_whitespace().collect();
    if tokens.len() != plies {
        return Err(format!("{name}: {} moves for {plies} plies", tokens.len()));
    }
    for (i, token) in tokens.iter().enumerate() {
        let rec = RecordMove::parse(token).map_err(|e| format!("{name}: {token}: {e}"))?;
        // OpenTafl lists the captured king among the captures; hnefi's captures are the
        // soldiers taken, the king's capture is the game's status.
        let king_before = game.position().board().king_bb();
        let got = game
            .play(rec.mv)
            .map_err(|e| format!("{name} ply {}: {token} refused: {e}", i + 1))?;
        let mut soldiers = rec.captures;
        if game.status() == (Status::won(Role::Attacker, Reason::KingCaptured)) {
            if (rec.captures & king_before).is_empty() {
                return Err(format!("{name}: {token}: OpenTafl did not list the king"));
            }
            soldiers = rec.captures & !king_before;
        }
        if got != soldiers {
            let squares: Vec<String> = got.into_iter().map(|sq| sq.to_string()).collect();
            return Err(format!(
                "{name} ply {}: {token}: hnefi captured [{}]",
                i + 1,
                squares.join(" ")
            ));
        }
        captures += got.count() as usize;
    }
    let status = game.status();
    let label = match expected(result, reason) {
        Some(want) => {
            if status != want {
                return Err(format!("{name}: hnefi says {status}, OpenTafl {ending}"));
            }
            if want == Status::Ongoing && plies != CAP {
                return Err(format!("{name}: ongoing before the cap"));
            }
            status.to_string()
        }
        None => {
            // OpenTafl's Fetlar ends the game here; hnefi's goes on, and hnefi's own
            // encirclement test (Copenhagen's, section 7) sees the same enclosure.
            if status != Status::Ongoing {
                return Err(format!("{name}: hnefi says {status} at an encirclement"));
            }
            if !is_encircled(game.position().board(), EncirclementMode::MultiPocket) {
                return Err(format!(
                    "{name}: hnefi does not see OpenTafl's encirclement"
                ));
            }
            // With the encirclement rule switched on, hnefi ends the game on that move.
            let with = RuleSet {
                encirclement_wins: true,
                ..RulePreset::Fetlar.rules()
            };
            let mut again = Game::new(with);
            for token in &tokens {
                let rec = RecordMove::parse(token).map_err(|e| format!("{name}: {e}"))?;
                again
                    .play(rec.mv)
                    .map_err(|e| format!("{name}: {token}: {e}"))?;
            }
            let want = Status::won(Role::Attacker, Reason::Encirclement);
            if again.status() != want {
                return Err(format!(
                    "{name}: with encirclement hnefi says {}",
                    again.status()
                ));
            }
            "ongoing (OpenTafl: attackers-win encirclement)".to_string()
        }
    };
    Ok((plies, captures, label))
}

#[test]
fn every_opentafl_fetlar_game_replays_identically() {
    let text = include_str!("data/fetlar_opentafl_games.txt");
    let mut failures = Vec::new();
    let mut endings: BTreeMap<String, usize> = BTreeMap::new();
    let (mut games, mut plies, mut captures) = (0, 0, 0);
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        match replay(line) {
            Ok((p, c, label)) => {
                games += 1;
                plies += p;
                captures += c;
                *endings.entry(label).or_default() += 1;
            }
            Err(e) => failures.push(e),
        }
    }
    println!("{games} games, {plies} plies, {captures} captures");
    for (label, n) in &endings {
        println!("{n:5} {label}");
    }
    assert!(
        failures.is_empty(),
        "{} games differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(games >= 300, "only {games} games");
    // Every kind of ending occurs at least once.
    for kind in [
        "attackers-win king-captured",
        "defenders-win king-escaped",
        "attackers-win no-moves",
        "defenders-win no-moves",
        "draw repetition",
        "ongoing",
        "ongoing (OpenTafl: attackers-win encirclement)",
    ] {
        assert!(endings.contains_key(kind), "no game ends {kind}");
    }
}

#[test]
fn opentafl_fetlar_perft_counts_match() {
    let text = include_str!("data/fetlar_opentafl_perft.txt");
    let rules = RulePreset::Fetlar.rules();
    let mut checked = 0;
    for block in text.split("\n\n") {
        let mut id = "";
        let mut pos = None;
        let mut board = None;
        for line in block.lines().filter(|l| !l.starts_with('#')) {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words[..] {
                ["id", name] => id = name,
                ["board", b] => board = Some(parse_rows(b).expect("board")),
                ["to-move", r] => {
                    let role: Role = r.parse().expect("role");
                    pos = Some(Position::new(board.expect("board before to-move"), role));
                }
                ["perft", d, n] => {
                    let p = pos.as_ref().expect("position before perft");
                    let depth: u32 = d.parse().expect("depth");
                    let want: u64 = n.parse().expect("count");
                    assert_eq!(perft(p, depth, &rules), want, "{id} perft {depth}");
                    checked += 1;
                }
                [] => {}
                _ => panic!("bad perft line: {line}"),
            }
        }
    }
    assert!(checked >= 15, "only {checked} counts checked");
}
