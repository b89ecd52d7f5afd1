//! Property tests over random legal games and random text, on every game hnefi plays: each
//! rule family on each of its board sizes (`RulePreset::ALL` and their `sizes()`), and the
//! rules strings of the boards no family plays (17x17, and Alea Evangelii on 19x19). A
//! case plays the same choices in every game, so the cases are spread evenly over them.

use proptest::prelude::*;

use hnefi::core::bitboard::BitboardOf;
use hnefi::core::board::{BoardOf, Piece};
use hnefi::core::capture;
use hnefi::core::corners::Corners;
use hnefi::core::game::GameOf;
use hnefi::core::geometry::{BoardSize, Geometry, S7, S9, S11, S13, S15, S17, S19};
use hnefi::core::king::KingCapture;
use hnefi::core::movegen;
use hnefi::core::moves::{Move, MoveListOf, MoveOf};
use hnefi::core::notation::{
    RecordMove, RecordToken, parse_opentafl, parse_opentafl_with, parse_rows, to_opentafl,
};
use hnefi::core::outcome::{Outcome, Reason, Status};
use hnefi::core::position::PositionOf;
use hnefi::core::preset::RulePreset;
use hnefi::core::repetition::RepetitionMode;
use hnefi::core::role::Role;
use hnefi::core::rules::RuleSet;
use hnefi::core::rules_string::parse_rules_string;
use hnefi::core::shield_walls::ShieldWalls;
use hnefi::core::square::{Direction, SquareOf};
use hnefi::core::variant::Variant;
use hnefi::core::zobrist;

/// OpenTafl's defaults (corner escape, a strong armed king, the four corners and the
/// throne) on 17x17 from hnefi's 17x17 start: no game is played on that board.
const RULES_17: &str = "dim:17 name:Seventeen atkf:y start:/4ttttttttt4/8t8/17/17/t7T7t/t7T7t/t7T7t/t6TTT6t/tt2TTTTKTTTT2tt/t6TTT6t/t7T7t/t7T7t/t7T7t/17/17/8t8/4ttttttttt4/";

/// OpenTafl's Alea Evangelii (its `external-rules.conf`): the corners are the 2x2 blocks.
const ALEA: &str = "dim:19 name:Alea_Evangelii esc:c atkf:y cor:a1,a2,b1,b2,a18,b18,a19,b19,r1,r2,s1,s2,r18,r19,s18,s19, cens: cenp:tcnkTCNK cenh: cenhe:tcnkTCNK tfr:w start:/2t2t7t2t2/19/t4t7t4t/7t1t1t7/6t1T1T1t6/t1t2t7t2t1t/4t4T4t4/3t4T1T4t3/4T2T1T1T2T4/3t2T1TKT1T2t3/4T2T1T1T2T4/3t4T1T4t3/4t4T4t4/t1t2t7t2t1t/6t1T1T1t6/7t1t1t7/t4t7t4t/19/2t2t7t2t2/";

/// One game of the tests: its name, the variant, and whether it is also played under
/// every repetition rule (Copenhagen's games are).
struct Case {
    name: String,
    variant: Variant,
    any_repetition: bool,
}

/// Every game hnefi plays: a rule family and one of its board sizes, and the rules
/// strings of the larger boards.
fn games() -> Vec<Case> {
    let families = RulePreset::ALL.iter().flat_map(|&family| {
        family.sizes().iter().map(move |&size| Case {
            name: format!("{family} {size}"),
            variant: family.variant(size).expect("a size of the family"),
            any_repetition: family == RulePreset::Copenhagen,
        })
    });
    let strings = [RULES_17, ALEA].map(|s| Case {
        name: s.split(' ').nth(1).unwrap_or(s).to_string(),
        variant: parse_rules_string(s).expect("a rules string hnefi models"),
        any_repetition: false,
    });
    families.chain(strings).collect()
}

/// The rules of a game; Copenhagen's with `repetition` instead of its own rule (its games
/// are also played under every repetition rule).
fn rules_of(case: &Case, repetition: RepetitionMode) -> RuleSet {
    let rules = case.variant.rules();
    if case.any_repetition {
        RuleSet {
            repetition,
            ..rules
        }
    } else {
        rules
    }
}

/// An independent, slow legality check: walk square by square. A piece slides over empty
/// squares (the empty throne included); only the king may stop on a restricted square, and
/// he not where the rules bar him.
fn slow_is_legal<G: Geometry>(
    board: &BoardOf<G>,
    role: Role,
    rules: &RuleSet,
    from: SquareOf<G>,
    to: SquareOf<G>,
) -> bool {
    let Some(piece) = board.piece_at(from) else {
        return false;
    };
    if piece.role() != role || from == to {
        return false;
    }
    let barred = if piece == Piece::King {
        rules.king_barred::<G>()
    } else {
        rules.restricted::<G>()
    };
    if barred.contains(to) {
        return false;
    }
    for dir in Direction::ALL {
        let mut q = from.step(dir);
        while let Some(sq) = q {
            if board.piece_at(sq).is_some() {
                break;
            }
            if sq == to {
                return true;
            }
            q = sq.step(dir);
        }
    }
    false
}

fn rules_strategy() -> impl Strategy<Value = RepetitionMode> {
    (0usize..RepetitionMode::ALL.len()).prop_map(|i| RepetitionMode::ALL[i])
}

/// Checks every property of one move from the game's position; plays it.
fn check_move<G: Geometry>(game: &mut GameOf<G>, mv: MoveOf<G>) {
    let rules = game.rules();
    let before = *game.position();
    let board = *before.board();
    let mover = before.to_move();
    let status_before = game.status();
    let plies_before = game.plies().len();
    let legal_before = game.legal_moves();
    let captured = game.play(mv).expect("a generated move is legal");
    let after = *game.position();
    let nb = after.board();
    // The incremental hash equals the hash from scratch.
    assert_eq!(after.hash(), zobrist::hash(nb, after.to_move()));
    // Piece counts never grow; captures are exactly what disappeared.
    assert!(nb.attackers().count() <= board.attackers().count());
    assert!(nb.defenders().count() <= board.defenders().count());
    let victims = board.soldiers(mover.opponent());
    assert_eq!(captured & !victims, BitboardOf::EMPTY);
    assert_eq!(nb.soldiers(mover.opponent()), victims & !captured);
    // The mover and the king are never removed.
    assert!(!captured.contains(mv.to));
    assert!(!captured.contains(nb.king()));
    assert!(nb.pieces(mover).contains(mv.to));
    // No shield wall away from the edge (nor anywhere without them): all captures are
    // custodial there.
    if !mv.to.is_edge() || rules.shield_walls != ShieldWalls::Copenhagen {
        let moved = moved_board(&board, mover, mv, &rules);
        if !mv.to.is_edge() {
            assert!(capture::shield_wall(&moved, mover, mv.to, &rules).is_empty());
        }
        assert_eq!(captured, capture::custodial(&moved, mover, mv.to, &rules));
    }
    // A strong king is never captured on an edge.
    if rules.king_capture == KingCapture::Strong {
        if let Status::Over(Outcome {
            winner: Some(_),
            reason: Reason::KingCaptured,
        }) = game.status()
        {
            assert!(!nb.king().is_edge());
        }
        if nb.king().is_edge() {
            assert!(!capture::king_captured(nb, mv.to, &rules));
        }
    }
    // The move played on the bare position (perft's and the search's way) gives the same
    // position and captures, and a win it makes by itself is the game's verdict; under
    // the 8 symmetries of the board it does the same.
    let mut bare = before;
    let effect = bare.play_unchecked(mv, &rules);
    assert_eq!(bare, after);
    assert_eq!(effect.captured, captured);
    let win = rules.referee.after_move(&after, mv.to, &rules);
    assert_eq!(win.map(|w| w.reason), effect.win);
    if let Some(w) = win {
        assert!(w.winner.is_some(), "{mv}: a move's own result is a win");
        assert_eq!(game.status().outcome(), Some(w), "{mv}");
    }
    if let Status::Over(Outcome {
        winner: Some(_),
        reason,
    }) = game.status()
        && matches!(
            reason,
            Reason::KingCaptured
                | Reason::KingEscaped
                | Reason::EdgeFort
                | Reason::Encirclement
                | Reason::DefendersBlocked
        )
    {
        assert_eq!(effect.win, Some(reason), "{mv}");
    }
    for sym in 1..8 {
        let mut turned = before.transform(sym);
        let e = turned.play_unchecked(mv.transform(sym), &rules);
        assert_eq!(
            turned.board(),
            &nb.transform(sym),
            "{mv} under symmetry {sym}"
        );
        assert_eq!(
            e.captured,
            captured.transform(sym),
            "{mv} under symmetry {sym}"
        );
        assert_eq!(e.win, effect.win, "{mv} under symmetry {sym}");
    }
    // Undo restores everything exactly.
    let mut copy = game.clone();
    copy.undo();
    assert_eq!(*copy.position(), before);
    assert_eq!(copy.status(), status_before);
    assert_eq!(copy.plies().len(), plies_before);
    assert_eq!(
        copy.positions(),
        &game.positions()[..game.positions().len() - 1]
    );
    assert_eq!(copy.history().len() + 1, game.history().len());
    assert_eq!(copy.legal_moves().as_slice(), legal_before.as_slice());
}

/// The board right after `mv` moved its piece, before any capture is removed.
fn moved_board<G: Geometry>(
    board: &BoardOf<G>,
    mover: Role,
    mv: MoveOf<G>,
    rules: &RuleSet,
) -> BoardOf<G> {
    let shift =
        |b: BitboardOf<G>| (b & !BitboardOf::from_square(mv.from)) | BitboardOf::from_square(mv.to);
    let is_king = mv.from == board.king();
    BoardOf::from_parts_with(
        if mover == Role::Attacker {
            shift(board.attackers())
        } else {
            board.attackers()
        },
        if mover == Role::Defender && !is_king {
            shift(board.defenders())
        } else {
            board.defenders()
        },
        if is_king { mv.to } else { board.king() },
        rules.restricted(),
    )
    .expect("a legal move leaves a valid board")
}

/// Every generated move passes the slow check, and every move the slow check accepts is
/// generated; the move count is the same under the 8 symmetries of the board.
fn check_generation<G: Geometry>(pos: &PositionOf<G>, rules: &RuleSet) {
    let board = pos.board();
    let role = pos.to_move();
    let list = movegen::legal_moves(board, role, rules);
    assert_eq!(list.len() as u64, movegen::count_moves(board, role, rules));
    assert_eq!(
        !list.is_empty(),
        movegen::has_move_under(board, role, rules)
    );
    let mut generated: Vec<MoveOf<G>> = list.to_vec();
    generated.sort();
    let mut slow = Vec::new();
    for from in board.pieces(role) {
        for to in SquareOf::<G>::all() {
            if slow_is_legal(board, role, rules, from, to) {
                slow.push(MoveOf { from, to });
            }
        }
    }
    slow.sort();
    assert_eq!(generated, slow);
    for sym in 1..8 {
        let turned = board.transform(sym);
        let mut moves: Vec<MoveOf<G>> = movegen::legal_moves(&turned, role, rules).to_vec();
        moves.sort();
        let mut want: Vec<MoveOf<G>> = generated.iter().map(|m| m.transform(sym)).collect();
        want.sort();
        assert_eq!(moves, want, "moves under symmetry {sym}");
    }
    // Linnaean captures are left out of the capture moves and squares below.
    if rules.linnaean {
        return;
    }
    // The capture moves are exactly the generated moves that capture custodially (the
    // king's moves onto the throne or a corner aside).
    let mut captures = MoveListOf::new();
    capture::capture_moves(board, role, rules, &mut captures);
    let mut captures = captures.to_vec();
    captures.sort();
    let restricted = rules.restricted::<G>();
    let filtered: Vec<MoveOf<G>> = generated
        .iter()
        .copied()
        .filter(|m| {
            !restricted.contains(m.to) && capture::custodial(board, role, m.to, rules).any()
        })
        .collect();
    assert_eq!(captures, filtered);
    // The capturing squares (the move ordering's test) are exactly the empty squares on
    // which a landing piece captures, the restricted ones included. (An occupied square may
    // differ: under Sea Battle 13x13 the king's own square counted as capturing for the
    // attackers while `custodial` said no; no piece lands there.)
    let capturing = capture::custodial_squares(board, role, rules);
    for to in board.empty() {
        assert_eq!(
            capturing.contains(to),
            capture::custodial(board, role, to, rules).any(),
            "{to} {role} {0}x{0}\n{pos:?}",
            G::SIZE
        );
    }
}

/// Bad input is refused and changes nothing: a square name off this board, and a move that
/// is not legal here (picked by `c`).
fn check_bad_input<G: Geometry>(game: &mut GameOf<G>, c: u16) {
    let size = G::SIZE;
    // Files a..t and ranks 0..=20 name squares on and off every board.
    let file = u8::try_from(c % 20).expect("below 20");
    let rank = u8::try_from((c / 20) % 21).expect("below 21");
    let name = format!("{}{rank}", char::from(b'a' + file));
    let on_board = file < size && (1..=size).contains(&rank);
    assert_eq!(name.parse::<SquareOf<G>>().is_ok(), on_board, "{name}");
    if !on_board {
        assert!(format!("{name}-a1").parse::<MoveOf<G>>().is_err(), "{name}");
        assert!(format!("a1-{name}").parse::<MoveOf<G>>().is_err(), "{name}");
    }
    // A straight move between two squares picked by `c` that is not legal here.
    let squares: Vec<SquareOf<G>> = SquareOf::<G>::all().collect();
    let from = squares[usize::from(c) % squares.len()];
    let to = squares[usize::from(c / 3 + 1) % squares.len()];
    let Some(mv) = MoveOf::new(from, to) else {
        return;
    };
    if game.legal_moves().contains(&mv) {
        return;
    }
    let before = game.clone();
    assert!(game.check(mv).is_err(), "{mv}");
    assert!(game.play(mv).is_err(), "{mv}");
    assert_eq!(game.position(), before.position());
    assert_eq!(game.positions(), before.positions());
    assert_eq!(game.plies().len(), before.plies().len());
    assert_eq!(game.history().len(), before.history().len());
    assert_eq!(game.status(), before.status());
}

/// A random game of `case` under `rules`, checking every position and move.
fn random_game(case: &Case, rules: RuleSet, choices: &[u16]) {
    let variant = &case.variant;
    let name = &case.name;
    hnefi::with_size!(variant.size(), G => {
        let start = variant.start_position::<G>().expect("the game's start");
        let mut game = GameOf::from_position(start, rules);
        for &c in choices {
            let moves = game.legal_moves();
            if moves.is_empty() {
                assert!(game.status().is_over(), "{name}");
                break;
            }
            check_generation(game.position(), &rules);
            check_bad_input(&mut game, c);
            let mv = moves[usize::from(c) % moves.len()];
            check_move(&mut game, mv);
        }
    });
}

/// The board a random game of `case` reaches, printed and read back in OpenTafl's
/// notation and in rows; read as a board of any other size, it is refused.
fn round_trip(case: &Case, choices: &[u16]) {
    let variant = &case.variant;
    let size = variant.size();
    let rules = RuleSet {
        repetition: RepetitionMode::Off,
        ..variant.rules()
    };
    hnefi::with_size!(size, G => {
        let start = variant.start_position::<G>().expect("the game's start");
        let mut game = GameOf::from_position(start, rules);
        for &c in choices {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            game.play(moves[usize::from(c) % moves.len()]).expect("legal");
        }
        let board = *game.position().board();
        let text = to_opentafl(&board);
        assert_eq!(parse_opentafl_with::<G>(&text, rules.restricted()), Ok(board));
        let rows = board.to_rows();
        assert_eq!(
            BoardOf::<G>::from_rows_with(rows.iter().map(String::as_str), rules.restricted()),
            Ok(board)
        );
        if rules.restricted::<G>() == BitboardOf::restricted() {
            assert_eq!(parse_opentafl::<G>(&text), Ok(board));
            assert_eq!(parse_rows::<G>(&rows.join("/")), Ok(board));
        }
        refused_on_other_sizes(size, &text, &rows.join("/"));
    });
}

/// A board of `size` written as `text` (OpenTafl) and `rows` is no board of another size.
fn refused_on_other_sizes(size: BoardSize, text: &str, rows: &str) {
    fn on<G: Geometry>(size: BoardSize, text: &str, rows: &str) {
        if G::SIZE != size.files() {
            assert!(
                parse_opentafl::<G>(text).is_err(),
                "{text} as {0}x{0}",
                G::SIZE
            );
            assert!(parse_rows::<G>(rows).is_err(), "{rows} as {0}x{0}", G::SIZE);
        }
    }
    on::<S7>(size, text, rows);
    on::<S9>(size, text, rows);
    on::<S11>(size, text, rows);
    on::<S13>(size, text, rows);
    on::<S15>(size, text, rows);
    on::<S17>(size, text, rows);
    on::<S19>(size, text, rows);
}

proptest! {
    // Each case plays its choices in all 15 games: 16 cases make 240 games (200 games of
    // 11x11 Copenhagen before).
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn random_games_keep_every_invariant_on_every_family_and_size(
        repetition in rules_strategy(),
        choices in proptest::collection::vec(any::<u16>(), 0..250),
    ) {
        for case in games() {
            random_game(&case, rules_of(&case, repetition), &choices);
        }
    }

    #[test]
    fn positions_round_trip_through_opentafl_on_every_family_and_size(
        choices in proptest::collection::vec(any::<u16>(), 0..120),
    ) {
        for case in games() {
            round_trip(&case, &choices);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn parsing_never_panics(s in "\\PC{0,40}") {
        let _ = s.parse::<SquareOf<S11>>();
        let _ = s.parse::<Move>();
        let _ = s.parse::<Role>();
        let _ = s.parse::<RepetitionMode>();
        let _ = RecordMove::parse(&s);
        let _ = RecordToken::parse(&s);
        parse_on_every_size(&s);
    }

    #[test]
    fn parsing_near_valid_text_never_panics(
        s in "[/0-9tTKkx.XO a-s-]{0,400}",
    ) {
        parse_on_every_size(&s);
        let _ = RecordMove::parse(&s);
        let _ = s.parse::<Move>();
    }
}

/// Every reader of squares, moves and boards of every board size, on any text: an error
/// or a value, never a panic.
fn parse_on_every_size(s: &str) {
    fn on<G: Geometry>(s: &str) {
        let _ = s.parse::<SquareOf<G>>();
        let _ = s.parse::<MoveOf<G>>();
        let _ = parse_opentafl::<G>(s);
        let _ = parse_rows::<G>(s);
    }
    on::<S7>(s);
    on::<S9>(s);
    on::<S11>(s);
    on::<S13>(s);
    on::<S15>(s);
    on::<S17>(s);
    on::<S19>(s);
}

#[test]
fn huge_run_lengths_are_rejected() {
    let s = format!("/{}/", ["99999999999999999999999999"; 11].join("/"));
    assert!(parse_opentafl::<S11>(&s).is_err());
    assert!(parse_opentafl::<S11>("/0/0/0/0/0/0/0/0/0/0/0/").is_err());
}

#[test]
fn every_game_is_played() {
    // 11x11, 7x7 and 13x13 of Copenhagen and the server's rules; Fetlar; Brandubh; Tablut
    // on 9x9 and 15x15; Sea Battle on 9x9 and 13x13; Tawlbwrdd; the 17x17 string; Alea
    // Evangelii.
    let games = games();
    assert_eq!(games.len(), 15);
    for size in BoardSize::ALL {
        assert!(games.iter().any(|g| g.variant.size() == size), "{size}");
    }
    let alea = games.iter().find(|g| g.name == "name:Alea_Evangelii");
    assert!(alea.is_some_and(|g| g.variant.rules().corners == Corners::Blocks));
}
