//! hnefi's Copenhagen against a second implementation it did not write: every game of
//! `tests/data/opentafl_copenhagen_games.txt` (random games played under OpenTafl v0.4.8.0b's
//! built-in Copenhagen, rules string `atkf:y tfr:w sw:s efe:y`) is replayed under
//! `RuleSet::COPENHAGEN` with the repetition mode `third-occurrence-mover-loses` (OpenTafl's
//! `tfr:w`, docs/RULES.md sections 8 and 17.8) — every move legal, every capture the same,
//! every ending the same — and every count of `tests/data/opentafl_copenhagen_perft.txt`
//! (OpenTafl's move generator) is hnefi's perft. The one difference is an order of tests:
//! when a move takes the attackers' last piece, OpenTafl stops at "no attackers left" while
//! hnefi may find the defenders' edge fort first; the winner is the same. The games and
//! counts of OpenTafl's "Copenhagen (relaxed shieldwall)" (`swf:n`, its walls taken by any
//! move, docs/RULES.md section 17.9), `tests/data/opentafl_copenhagen_relaxed_*.txt`, are
//! replayed and counted the same way under the rule set hnefi reads from that string.

use std::collections::BTreeMap;

use hnefi::core::game::Game;
use hnefi::core::notation::{RecordMove, parse_rows};
use hnefi::core::outcome::{Reason, Status};
use hnefi::core::perft::perft;
use hnefi::core::position::Position;
use hnefi::core::repetition::RepetitionMode;
use hnefi::core::role::Role;
use hnefi::core::rules::RuleSet;
use hnefi::core::rules_string::parse_rules_string;
use hnefi::core::shield_walls::ShieldWalls;

/// The driver's cap: a game stopped there is still on.
const CAP: usize = 300;

/// OpenTafl's Copenhagen in hnefi's terms.
fn rules() -> RuleSet {
    RuleSet {
        repetition: RepetitionMode::ThirdOccurrenceMoverLoses,
        ..RuleSet::COPENHAGEN
    }
}

/// The endings hnefi may give for OpenTafl's verdict (more than one only where the order of
/// the end tests differs).
fn expected(result: &str, reason: &str) -> Vec<Status> {
    let won = |winner, reason| Status::won(winner, reason);
    match (result, reason) {
        ("ATTACKER_WIN", "king-captured" | "no-defenders") => {
            vec![won(Role::Attacker, Reason::KingCaptured)]
        }
        ("DEFENDER_WIN", "king-escaped") => vec![won(Role::Defender, Reason::KingEscaped)],
        // OpenTafl: the attackers have no piece left, tested before the edge fort.
        ("DEFENDER_WIN", "no-attackers") => vec![
            won(Role::Defender, Reason::NoMoves),
            won(Role::Defender, Reason::EdgeFort),
        ],
        // OpenTafl: no defender has an empty neighbour square.
        ("ATTACKER_WIN", "defenders-blocked") => vec![won(Role::Attacker, Reason::NoMoves)],
        ("ATTACKER_WIN", "no-moves") => vec![won(Role::Attacker, Reason::NoMoves)],
        ("DEFENDER_WIN", "no-moves") => vec![won(Role::Defender, Reason::NoMoves)],
        ("ATTACKER_WIN", "repetition") => vec![won(Role::Attacker, Reason::Repetition)],
        ("DEFENDER_WIN", "repetition") => vec![won(Role::Defender, Reason::Repetition)],
        ("DEFENDER_WIN", "edge-fort") => vec![won(Role::Defender, Reason::EdgeFort)],
        ("ATTACKER_WIN", "encirclement") => vec![won(Role::Attacker, Reason::Encirclement)],
        ("ONGOING", "cap") => vec![Status::Ongoing],
        _ => panic!("unknown ending {result} {reason}"),
    }
}

/// Replays one game line; returns (plies, captures, OpenTafl's ending, hnefi's ending) or
/// what differs.
fn replay(line: &str, rules: RuleSet) -> Result<(usize, usize, String, String), String> {
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
    let mut game = Game::new(rules);
    let mut captures = 0;
    let tokens: Vec<&str> = moves.split_whitespace().collect();
    if tokens.len() != plies {
        return Err(format!("{name}: {} moves for {plies} plies", tokens.len()));
    }
    for (i, token) in tokens.iter().enumerate() {
        if game.status() != Status::Ongoing {
            return Err(format!(
                "{name}: hnefi ended the game after ply {i} ({}), OpenTafl after {plies}",
                game.status()
            ));
        }
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
    if !expected(result, reason).contains(&status) {
        return Err(format!("{name}: hnefi says {status}, OpenTafl {ending}"));
    }
    if status == Status::Ongoing && plies != CAP {
        return Err(format!("{name}: ongoing before the cap"));
    }
    Ok((plies, captures, ending.to_string(), status.to_string()))
}

#[test]
fn every_opentafl_copenhagen_game_replays_identically() {
    replay_file(
        include_str!("data/opentafl_copenhagen_games.txt"),
        rules(),
        &[
            "attackers-win king-captured",
            "defenders-win king-escaped",
            "attackers-win no-moves",
            "defenders-win no-moves",
            "attackers-win repetition",
            "defenders-win repetition",
            "attackers-win encirclement",
            "defenders-win edge-fort",
            "ongoing",
        ],
    );
}

/// The rule set of OpenTafl's relaxed-shieldwall Copenhagen, read from the rules string of
/// its data file's header.
fn relaxed_rules() -> RuleSet {
    let text = include_str!("data/opentafl_copenhagen_relaxed_games.txt");
    let s = text
        .lines()
        .find_map(|l| l.strip_prefix("# rules "))
        .expect("a rules line");
    let rules = parse_rules_string(s).expect("the relaxed string").rules();
    assert_eq!(rules.shield_walls, ShieldWalls::OpenTafl);
    rules
}

#[test]
fn every_opentafl_relaxed_copenhagen_game_replays_identically() {
    replay_file(
        include_str!("data/opentafl_copenhagen_relaxed_games.txt"),
        relaxed_rules(),
        &[
            "attackers-win king-captured",
            "defenders-win king-escaped",
            "attackers-win no-moves",
            "attackers-win repetition",
            "defenders-win repetition",
            "attackers-win encirclement",
            "ongoing",
        ],
    );
}

#[test]
fn opentafl_relaxed_copenhagen_perft_counts_match() {
    check_perft(
        include_str!("data/opentafl_copenhagen_relaxed_perft.txt"),
        relaxed_rules(),
        10,
    );
}

/// Replays every game of `text` under `rules`; every ending of `kinds` (hnefi's words)
/// must occur.
fn replay_file(text: &str, rules: RuleSet, kinds: &[&str]) {
    let mut failures = Vec::new();
    let mut endings: BTreeMap<(String, String), usize> = BTreeMap::new();
    let (mut games, mut plies, mut captures) = (0, 0, 0);
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        match replay(line, rules) {
            Ok((p, c, theirs, ours)) => {
                games += 1;
                plies += p;
                captures += c;
                *endings.entry((theirs, ours)).or_default() += 1;
            }
            Err(e) => failures.push(e),
        }
    }
    println!("{games} games, {plies} plies, {captures} captures");
    for ((theirs, ours), n) in &endings {
        println!("{n:5} OpenTafl {theirs}: hnefi {ours}");
    }
    assert!(
        failures.is_empty(),
        "{} games differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(games >= 300, "only {games} games");
    // Every kind of ending of the file occurs, in hnefi's words.
    for &kind in kinds {
        assert!(
            endings.keys().any(|(_, ours)| ours == kind),
            "no game ends {kind}"
        );
    }
}

#[test]
fn opentafl_copenhagen_perft_counts_match() {
    check_perft(
        include_str!("data/opentafl_copenhagen_perft.txt"),
        rules(),
        25,
    );
}

/// Checks every count of a perft file under `rules`; at least `least` of them.
fn check_perft(text: &str, rules: RuleSet, least: usize) {
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
    assert!(checked >= least, "only {checked} counts checked");
}
