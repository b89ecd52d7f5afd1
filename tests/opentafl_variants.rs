//! OpenTafl's variants against OpenTafl itself, a second implementation hnefi did not
//! write: every game of `tests/data/opentafl_<variant>_games.txt` (random games OpenTafl
//! v0.4.8.0b played under the variant's rules string) is replayed under hnefi's family of
//! that name and size — every move legal, every capture and every ending the same — and
//! every count of `tests/data/opentafl_<variant>_perft.txt` (OpenTafl's move generator and
//! verdicts) is hnefi's perft (also Copenhagen on the hnefatafl.org 13x13 board), and every
//! rule case of `tests/data/opentafl_cases.txt` and `tests/data/opentafl_13x13_cases.txt`
//! (single moves checked in OpenTafl) passes under the 8 symmetries (docs/RULES.md
//! section 17). Alea Evangelii (19x19, the corners 2x2 blocks), Foteviken Tablut (attacker
//! forts) and Magpie (the king's speed limit), which no family plays, are played from the
//! rules string of their files' headers.

use crate::case_file;

use std::collections::BTreeMap;

use hnefi::core::board::BoardOf;
use hnefi::core::game::GameOf;
use hnefi::core::geometry::{BoardSize, Geometry};
use hnefi::core::moves::MoveOf;
use hnefi::core::outcome::{Reason, Status};
use hnefi::core::perft::perft;
use hnefi::core::position::PositionOf;
use hnefi::core::preset::RulePreset;
use hnefi::core::role::Role;
use hnefi::core::rules_string::parse_rules_string;
use hnefi::core::square::SquareOf;
use hnefi::core::variant::Variant;
use hnefi::with_size;

/// The driver's cap: a game stopped there is still on.
const CAP: usize = 300;

/// The game a data file is of: a family's on a board size, or the rules string of its
/// header's `# rules` line.
#[derive(Clone, Copy)]
enum Game {
    Family(RulePreset, BoardSize),
    Header,
}

impl Game {
    /// The variant hnefi plays for the data file `text`.
    fn variant(self, text: &str) -> Variant {
        match self {
            Game::Family(family, size) => family.variant(size).expect("the family plays this size"),
            Game::Header => {
                let rules = text
                    .lines()
                    .find_map(|l| l.strip_prefix("# rules "))
                    .expect("a # rules line");
                parse_rules_string(rules).expect("a rules string hnefi models")
            }
        }
    }
}

/// Each data file, hnefi's game for it, and the endings its games must show.
const FILES: [(&str, &str, Game, &[&str]); 9] = [
    (
        "brandub",
        include_str!("data/opentafl_brandub_games.txt"),
        Game::Family(RulePreset::Brandubh, BoardSize::S7),
        &[
            "king-captured",
            "king-escaped",
            "no-attackers",
            "no-defenders",
            "repetition",
        ],
    ),
    (
        "tablut",
        include_str!("data/opentafl_tablut_games.txt"),
        Game::Family(RulePreset::Tablut, BoardSize::S9),
        &[
            "cap",
            "defenders-blocked",
            "encirclement",
            "king-captured",
            "king-escaped",
            "no-attackers",
            "no-defenders",
            "no-moves",
            "repetition",
        ],
    ),
    (
        "tablut_15",
        include_str!("data/opentafl_tablut_15_games.txt"),
        Game::Family(RulePreset::Tablut, BoardSize::S15),
        &[
            "cap",
            "encirclement",
            "king-captured",
            "king-escaped",
            "no-defenders",
            "no-moves",
            "repetition",
        ],
    ),
    (
        "sea_battle_9",
        include_str!("data/opentafl_sea_battle_9_games.txt"),
        Game::Family(RulePreset::SeaBattle, BoardSize::S9),
        &[
            "defenders-blocked",
            "encirclement",
            "king-captured",
            "king-escaped",
            "no-attackers",
            "no-defenders",
            "repetition",
        ],
    ),
    (
        "sea_battle_13",
        include_str!("data/opentafl_sea_battle_13_games.txt"),
        Game::Family(RulePreset::SeaBattle, BoardSize::S13),
        &[
            "cap",
            "encirclement",
            "king-captured",
            "king-escaped",
            "no-attackers",
            "no-defenders",
            "repetition",
        ],
    ),
    (
        "tawlbwrdd",
        include_str!("data/opentafl_tawlbwrdd_games.txt"),
        Game::Family(RulePreset::Tawlbwrdd, BoardSize::S11),
        &[
            "cap",
            "defenders-blocked",
            "encirclement",
            "king-captured",
            "king-escaped",
            "no-attackers",
            "repetition",
        ],
    ),
    (
        "foteviken",
        include_str!("data/opentafl_foteviken_games.txt"),
        Game::Header,
        &[
            "cap",
            "encirclement",
            "king-captured",
            "king-escaped",
            "no-attackers",
            "no-defenders",
            "no-moves",
            "repetition",
        ],
    ),
    (
        "magpie",
        include_str!("data/opentafl_magpie_games.txt"),
        Game::Header,
        &[
            "cap",
            "king-captured",
            "king-escaped",
            "no-attackers",
            "no-defenders",
            "repetition",
        ],
    ),
    (
        "alea_evangelii",
        include_str!("data/opentafl_alea_evangelii_games.txt"),
        Game::Header,
        &[
            "cap",
            "defenders-blocked",
            "encirclement",
            "king-captured",
            "king-escaped",
            "no-attackers",
            "no-defenders",
            "repetition",
        ],
    ),
];

/// The perft files, with the same games, and Copenhagen on the hnefatafl.org 13x13 board
/// (OpenTafl's Copenhagen string with that board, docs/RULES.md section 17.12).
const PERFT: [(&str, &str, Game); 10] = [
    (
        "brandub",
        include_str!("data/opentafl_brandub_perft.txt"),
        Game::Family(RulePreset::Brandubh, BoardSize::S7),
    ),
    (
        "tablut",
        include_str!("data/opentafl_tablut_perft.txt"),
        Game::Family(RulePreset::Tablut, BoardSize::S9),
    ),
    (
        "tablut_15",
        include_str!("data/opentafl_tablut_15_perft.txt"),
        Game::Family(RulePreset::Tablut, BoardSize::S15),
    ),
    (
        "sea_battle_9",
        include_str!("data/opentafl_sea_battle_9_perft.txt"),
        Game::Family(RulePreset::SeaBattle, BoardSize::S9),
    ),
    (
        "sea_battle_13",
        include_str!("data/opentafl_sea_battle_13_perft.txt"),
        Game::Family(RulePreset::SeaBattle, BoardSize::S13),
    ),
    (
        "tawlbwrdd",
        include_str!("data/opentafl_tawlbwrdd_perft.txt"),
        Game::Family(RulePreset::Tawlbwrdd, BoardSize::S11),
    ),
    (
        "copenhagen_13",
        include_str!("data/opentafl_copenhagen_13_perft.txt"),
        Game::Family(RulePreset::Copenhagen, BoardSize::S13),
    ),
    (
        "foteviken",
        include_str!("data/opentafl_foteviken_perft.txt"),
        Game::Header,
    ),
    (
        "magpie",
        include_str!("data/opentafl_magpie_perft.txt"),
        Game::Header,
    ),
    (
        "alea_evangelii",
        include_str!("data/opentafl_alea_evangelii_perft.txt"),
        Game::Header,
    ),
];

/// What OpenTafl's verdict is in hnefi's terms (the files' reasons are docs/RULES.md
/// section 17.8's; OpenTafl removes a captured king, so its "no defenders" is a king
/// captured with the last defender).
fn expected(result: &str, reason: &str) -> Status {
    let won = |winner, reason| Status::won(winner, reason);
    match (result, reason) {
        ("ATTACKER_WIN", "king-captured" | "no-defenders") => {
            won(Role::Attacker, Reason::KingCaptured)
        }
        ("DEFENDER_WIN", "king-escaped") => won(Role::Defender, Reason::KingEscaped),
        ("DEFENDER_WIN", "no-attackers") => won(Role::Defender, Reason::NoMoves),
        ("ATTACKER_WIN", "defenders-blocked") => won(Role::Attacker, Reason::DefendersBlocked),
        ("ATTACKER_WIN", "encirclement") => won(Role::Attacker, Reason::Encirclement),
        ("ATTACKER_WIN", "no-moves") => won(Role::Attacker, Reason::NoMoves),
        ("DEFENDER_WIN", "no-moves") => won(Role::Defender, Reason::NoMoves),
        ("DRAW", "repetition") => Status::drawn(Reason::Repetition),
        // tfr:w (Alea Evangelii): the side that did not make the third occurrence wins.
        ("ATTACKER_WIN", "repetition") => won(Role::Attacker, Reason::Repetition),
        ("DEFENDER_WIN", "repetition") => won(Role::Defender, Reason::Repetition),
        ("ONGOING", "cap") => Status::Ongoing,
        _ => panic!("unknown ending {result} {reason}"),
    }
}

/// Replays one game line on geometry `G`; returns (plies, captures, OpenTafl's reason) or
/// what differs.
fn replay<G: Geometry>(variant: &Variant, line: &str) -> Result<(usize, usize, String), String> {
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
    let start = variant.start_position::<G>().map_err(|e| e.to_string())?;
    let mut game = GameOf::<G>::from_position(start, variant.rules());
    let mut captures = 0;
    let tokens: Vec<&str> = moves.split_whitespace().collect();
    if tokens.len() != plies {
        return Err(format!("{name}: {} moves for {plies} plies", tokens.len()));
    }
    for (i, token) in tokens.iter().enumerate() {
        let mut parts = token.split('x');
        let mv: MoveOf<G> = parts
            .next()
            .unwrap_or("")
            .parse()
            .map_err(|e| format!("{name}: {token}: {e}"))?;
        let mut listed = Vec::new();
        for sq in parts {
            let sq: SquareOf<G> = sq.parse().map_err(|e| format!("{name}: {token}: {e}"))?;
            listed.push(sq);
        }
        let king_before = game.position().board().king();
        let got = game
            .play(mv)
            .map_err(|e| format!("{name} ply {}: {token} refused: {e}", i + 1))?;
        // OpenTafl lists a captured king among the captures; hnefi's captures are the
        // soldiers taken, the king's capture is the game's status.
        let king_taken = game.status() == (Status::won(Role::Attacker, Reason::KingCaptured));
        if king_taken != listed.contains(&king_before) {
            return Err(format!(
                "{name} ply {}: {token}: hnefi says {}",
                i + 1,
                game.status()
            ));
        }
        listed.retain(|&sq| sq != king_before);
        let mut got_list: Vec<SquareOf<G>> = got.into_iter().collect();
        got_list.sort();
        listed.sort();
        listed.dedup();
        if got_list != listed {
            let squares: Vec<String> = got_list.iter().map(|sq| sq.to_string()).collect();
            return Err(format!(
                "{name} ply {}: {token}: hnefi captured [{}]",
                i + 1,
                squares.join(" ")
            ));
        }
        captures += got_list.len();
    }
    let want = expected(result, reason);
    if game.status() != want {
        return Err(format!(
            "{name}: hnefi says {}, OpenTafl {ending}",
            game.status()
        ));
    }
    if want == Status::Ongoing && plies != CAP {
        return Err(format!("{name}: ongoing before the cap"));
    }
    Ok((plies, captures, reason.to_string()))
}

#[test]
fn every_opentafl_variant_game_replays_identically() {
    let mut failures = Vec::new();
    for (name, text, game, kinds) in FILES {
        let variant = game.variant(text);
        let size = variant.size();
        let mut endings: BTreeMap<String, usize> = BTreeMap::new();
        let (mut games, mut plies, mut captures) = (0, 0, 0);
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            match with_size!(size, G => replay::<G>(&variant, line)) {
                Ok((p, c, reason)) => {
                    games += 1;
                    plies += p;
                    captures += c;
                    *endings.entry(reason).or_default() += 1;
                }
                Err(e) => failures.push(format!("{name}: {e}")),
            }
        }
        println!("{name}: {games} games, {plies} plies, {captures} captures, endings {endings:?}");
        if games < 300 {
            failures.push(format!("{name}: only {games} games"));
        }
        for kind in kinds {
            if !endings.contains_key(*kind) {
                failures.push(format!("{name}: no game ends by {kind}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} games differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Checks one perft file on geometry `G`; returns the number of counts checked.
fn check_perft<G: Geometry>(name: &str, text: &str, variant: &Variant) -> usize {
    let rules = variant.rules();
    let mut checked = 0;
    for block in text.split("\n\n") {
        let mut id = "";
        let mut board: Option<BoardOf<G>> = None;
        let mut pos = None;
        for line in block.lines().filter(|l| !l.starts_with('#')) {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words[..] {
                ["id", i] => id = i,
                ["board", b] => {
                    board = Some(
                        BoardOf::from_rows_with(b.split('/'), rules.restricted()).expect("board"),
                    );
                }
                ["to-move", r] => {
                    let role: Role = r.parse().expect("role");
                    pos = Some(PositionOf::new(board.expect("board before to-move"), role));
                }
                ["perft", d, n] => {
                    let p = pos.as_ref().expect("position before perft");
                    let depth: u32 = d.parse().expect("depth");
                    let want: u64 = n.parse().expect("count");
                    // Deep counts of the start cost seconds; the shallower ones and the
                    // mid-game positions check the same rules.
                    if want > 5_000_000 {
                        continue;
                    }
                    assert_eq!(perft(p, depth, &rules), want, "{name} {id} perft {depth}");
                    checked += 1;
                }
                [] => {}
                _ => panic!("{name}: bad perft line: {line}"),
            }
        }
    }
    checked
}

#[test]
fn opentafl_variant_perft_counts_match() {
    for (name, text, game) in PERFT {
        let variant = game.variant(text);
        let checked = with_size!(variant.size(), G => check_perft::<G>(name, text, &variant));
        assert!(checked >= 10, "{name}: only {checked} counts checked");
    }
}

#[test]
fn every_opentafl_rule_case_passes_under_all_symmetries() {
    case_file::run_file(
        include_str!("data/opentafl_cases.txt"),
        "opentafl_cases.txt",
        true,
        |_| {},
    );
}

#[test]
fn every_opentafl_13x13_rule_case_passes_under_all_symmetries() {
    case_file::run_file(
        include_str!("data/opentafl_13x13_cases.txt"),
        "opentafl_13x13_cases.txt",
        true,
        |_| {},
    );
}
