//! OpenTafl's Berserk 11x11 against OpenTafl itself (docs/RULES.md section 17.10): every
//! count of `tests/data/opentafl_berserk_perft.txt` (OpenTafl's move generator and
//! verdicts, from the start and from positions of its random games, some in the middle of
//! a berserk turn) is hnefi's Berserk perft, and every game of
//! `tests/data/opentafl_berserk_games.txt` replays move by move: each move legal, a jump
//! where OpenTafl jumped, a continuation where its turn continued, the same pieces taken,
//! the same ending.

use hnefi::core::berserk_position::{BerserkPositionOf, BerserkRules};
use hnefi::core::berserk_variant::BerserkVariant;
use hnefi::core::bitboard::BitboardOf;
use hnefi::core::geometry::S11;
use hnefi::core::moves::MoveOf;
use hnefi::core::perft::berserk_perft;
use hnefi::core::role::Role;
use hnefi::core::rules_string::parse_berserk_rules_string;
use hnefi::core::square::SquareOf;

type Pos = BerserkPositionOf<S11>;

/// The rules string of a data file's `# rules` line.
pub(crate) fn variant(text: &str) -> BerserkVariant {
    let rules = text
        .lines()
        .find_map(|l| l.strip_prefix("# rules "))
        .expect("a # rules line");
    parse_berserk_rules_string(rules).expect("a rules string the Berserk model plays")
}

/// A position of the data files: OpenTafl's position record with commanders and knights,
/// the side to move, and the piece whose turn continues (`-` for none); with the rules
/// OpenTafl plays from it (which sides have commanders or knights is read from it).
pub(crate) fn position(
    v: &BerserkVariant,
    record: &str,
    to_move: Role,
    berserker: &str,
) -> (Pos, BerserkRules) {
    let with_start = v.with_start(record);
    let start = with_start.position::<S11>().expect("a position of 11 rows");
    let pos = Pos::new(*start.board(), *start.specials(), to_move);
    let pos = match berserker {
        "-" => pos,
        sq => pos
            .with_berserker(sq.parse().expect("a square"))
            .expect("the berserker is a piece of the side to move"),
    };
    (pos, *with_start.rules())
}

#[test]
fn berserk_perft_is_opentafls() {
    let checked = perft_is_opentafls(include_str!("data/opentafl_berserk_perft.txt"));
    assert!(checked >= 60, "only {checked} counts");
}

/// Checks every count of a perft file (those above 5,000,000 left to the command line)
/// under the rules of its `# rules` line; the number of counts checked.
pub(crate) fn perft_is_opentafls(text: &str) -> usize {
    let v = variant(text);
    let mut checked = 0;
    for block in text.split("\n\n") {
        let mut id = "";
        let mut record = "";
        let mut to_move = Role::Attacker;
        let mut berserker = "-";
        let mut counts = Vec::new();
        for line in block.lines().filter(|l| !l.starts_with('#')) {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["id", name] => id = name,
                ["position", p] => record = p,
                ["to-move", "attackers"] => to_move = Role::Attacker,
                ["to-move", "defenders"] => to_move = Role::Defender,
                ["berserker", b] => berserker = b,
                ["perft", d, n] => {
                    counts.push((d.parse::<u32>().unwrap(), n.parse::<u64>().unwrap()))
                }
                [] => {}
                other => panic!("unexpected line {other:?}"),
            }
        }
        if counts.is_empty() {
            continue;
        }
        let (pos, r) = position(&v, record, to_move, berserker);
        for (depth, count) in counts {
            // The deepest counts of the start are left to `hnefi`'s command line.
            if count > 5_000_000 {
                continue;
            }
            assert_eq!(berserk_perft(&pos, depth, &r), count, "{id} perft {depth}");
            checked += 1;
        }
    }
    println!("{checked} perft counts equal");
    checked
}

/// One move of a game line in OpenTafl's notation: the piece's letter (special pieces),
/// `from`, `-` or `^` (a jump OpenTafl counted as capturing; it writes the others with
/// `-`) and `=` (the piece's turn continued into this move), `to`,
/// then `x` and the taken squares (each with its piece's letter if special), separated by
/// `/`; the driver's `+` after it says the turn continues.
pub(crate) struct Recorded {
    pub(crate) mv: MoveOf<S11>,
    pub(crate) jump: bool,
    pub(crate) continued: bool,
    pub(crate) taken: BitboardOf<S11>,
    pub(crate) continues: bool,
}

/// A square, after the piece letter that may precede it (a letter followed by a letter:
/// `ce9`, `Kc6`; `c11` is a square).
fn square(s: &str) -> SquareOf<S11> {
    let b = s.as_bytes();
    let sq = if b.len() > 1 && b[0].is_ascii_alphabetic() && b[1].is_ascii_alphabetic() {
        &s[1..]
    } else {
        s
    };
    sq.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

pub(crate) fn recorded(word: &str) -> Recorded {
    let (word, continues) = match word.strip_suffix('+') {
        Some(w) => (w, true),
        None => (word, false),
    };
    let (mv, taken) = match word.split_once('x') {
        Some((m, t)) => (m, t.split('/').map(square).collect()),
        None => (word, BitboardOf::EMPTY),
    };
    let sep = mv.find(['-', '^', '=']).expect("a move separator");
    let from = square(&mv[..sep]);
    let rest = &mv[sep..];
    let to_at = rest
        .find(|c: char| c.is_ascii_lowercase())
        .expect("a destination");
    let (kind, to) = rest.split_at(to_at);
    Recorded {
        mv: MoveOf::new(from, square(to)).expect("a straight move"),
        jump: kind.contains('^'),
        continued: kind.contains('='),
        taken,
        continues,
    }
}

#[test]
fn berserk_games_replay_as_in_opentafl() {
    let text = include_str!("data/opentafl_berserk_games.txt");
    let v = variant(text);
    let r = v.rules();
    let (mut games, mut plies, mut jumps, mut continuations) = (0, 0, 0, 0);
    for line in text.lines().filter(|l| l.starts_with("game ")) {
        let parts: Vec<&str> = line.split(" | ").collect();
        let [name, count, result, moves] = parts.as_slice() else {
            panic!("bad line {line}");
        };
        let mut pos = v.position::<S11>().unwrap();
        let words: Vec<&str> = moves.split_whitespace().collect();
        assert_eq!(words.len(), count.parse::<usize>().unwrap(), "{name}");
        for (i, word) in words.iter().enumerate() {
            let rec = recorded(word);
            let at = format!("{name} ply {} {word}", i + 1);
            assert!(
                !pos.status(r).is_over(),
                "{at}: hnefi ended the game before"
            );
            assert!(pos.is_legal(rec.mv, r), "{at}: illegal in hnefi\n{pos:?}");
            assert_eq!(
                pos.berserker() == Some(rec.mv.from),
                rec.continued,
                "{at}: continuation"
            );
            let before = pos;
            let effect = pos.play(rec.mv, r);
            let mut taken = effect.taken.soldiers;
            if effect.taken.king {
                taken.insert(before.board().king());
            }
            assert_eq!(taken, rec.taken, "{at}: taken\n{before:?}");
            // OpenTafl marks a jump only in a move it counts as capturing.
            assert_eq!(effect.jump && effect.listed, rec.jump, "{at}: jump");
            assert_eq!(
                effect.continues, rec.continues,
                "{at}: turn continues\n{pos:?}"
            );
            plies += 1;
            jumps += usize::from(rec.jump);
            continuations += usize::from(rec.continued);
        }
        let status = pos.status(r).outcome().and_then(|o| o.winner);
        match *result {
            "attackers" => assert_eq!(status, Some(Role::Attacker), "{name}"),
            "defenders" => assert_eq!(status, Some(Role::Defender), "{name}"),
            "ongoing cap" => assert_eq!(status, None, "{name}"),
            "nomoves" => {
                assert_eq!(status, None, "{name}");
                assert!(pos.legal_moves(r).as_slice().is_empty(), "{name}");
            }
            other => panic!("{name}: result {other}"),
        }
        games += 1;
    }
    println!("{games} games, {plies} plies, {jumps} jumps, {continuations} continuations");
    assert!(games >= 100 && jumps > 0 && continuations > 0);
}

/// The start's depth 4 (52,106,188 leaves, a few seconds): `cargo test --release --test
/// integration -- --ignored opentafl_berserk`.
#[test]
#[ignore]
fn berserk_start_perft_4_is_opentafls() {
    let text = include_str!("data/opentafl_berserk_perft.txt");
    let v = variant(text);
    let start = v.position::<S11>().unwrap();
    assert_eq!(berserk_perft(&start, 4, v.rules()), 52_106_188);
}

/// Every case of `tests/data/opentafl_berserk_cases.txt` (single moves played in
/// OpenTafl) under the 8 symmetries of the board: legal or not as there, the same pieces
/// taken, a jump marked where OpenTafl marks one, the turn continuing or passing, the
/// same verdict.
#[test]
fn berserk_cases_hold_under_the_symmetries() {
    let text = include_str!("data/opentafl_berserk_cases.txt");
    let v = variant(include_str!("data/opentafl_berserk_games.txt"));
    let mut cases = 0;
    for block in text
        .split("\n\n")
        .filter(|b| b.lines().any(|l| l.starts_with("case ")))
    {
        let field = |key: &str| {
            block
                .lines()
                .find_map(|l| l.strip_prefix(key).and_then(|l| l.strip_prefix(' ')))
                .unwrap_or_else(|| panic!("no {key} in {block}"))
        };
        let id = field("case");
        let to_move = match field("to-move") {
            "attackers" => Role::Attacker,
            _ => Role::Defender,
        };
        let (base, rules) = position(&v, field("position"), to_move, field("berserker"));
        let r = &rules;
        let (from, to) = field("play").split_once('-').expect("a move");
        let mv = MoveOf::new(square(from), square(to)).expect("a straight move");
        let expect = field("expect");
        for sym in 0..8 {
            let pos = base.transform(sym);
            let mv = mv.transform(sym);
            let at = format!("{id} under symmetry {sym}");
            if expect == "illegal" {
                assert!(!pos.is_legal(mv, r), "{at}: legal in hnefi");
                assert!(!pos.legal_moves(r).as_slice().contains(&mv), "{at}");
                continue;
            }
            assert!(pos.is_legal(mv, r), "{at}: illegal in hnefi\n{pos:?}");
            let rec = recorded(expect);
            let taken_expected: BitboardOf<S11> =
                rec.taken.into_iter().map(|s| s.transform(sym)).collect();
            let mut next = pos;
            let effect = next.play(mv, r);
            let mut taken = effect.taken.soldiers;
            if effect.taken.king {
                taken.insert(pos.board().king());
            }
            assert_eq!(taken, taken_expected, "{at}: taken\n{pos:?}");
            assert_eq!(effect.jump && effect.listed, rec.jump, "{at}: jump");
            assert_eq!(
                pos.berserker() == Some(mv.from),
                rec.continued,
                "{at}: continuation"
            );
            assert_eq!(
                effect.continues,
                field("continues") == "yes",
                "{at}: continues"
            );
            let winner = match field("result") {
                "attackers" => Some(Role::Attacker),
                "defenders" => Some(Role::Defender),
                _ => None,
            };
            assert_eq!(
                next.status(r).outcome().and_then(|o| o.winner),
                winner,
                "{at}: result"
            );
        }
        cases += 1;
    }
    assert_eq!(cases, 19);
}
