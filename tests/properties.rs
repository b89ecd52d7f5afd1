//! Property tests over random legal games and random text.

use proptest::prelude::*;

use hnefi::core::bitboard::Bitboard;
use hnefi::core::board::{Board, Piece};
use hnefi::core::capture;
use hnefi::core::game::{Game, RepetitionMode, RuleSet};
use hnefi::core::geometry::{Geometry, S7, S9, S11, S13, S15};
use hnefi::core::movegen;
use hnefi::core::moves::Move;
use hnefi::core::moves::MoveOf;
use hnefi::core::notation::{RecordMove, RecordToken, parse_opentafl, parse_rows, to_opentafl};
use hnefi::core::position::{Position, Reason, Status};
use hnefi::core::role::Role;
use hnefi::core::square::SquareOf;
use hnefi::core::square::{Direction, Square};
use hnefi::core::zobrist;

/// An independent, slow legality check: walk square by square.
fn slow_is_legal(board: &Board, role: Role, from: Square, to: Square) -> bool {
    let Some(piece) = board.piece_at(from) else {
        return false;
    };
    if piece.role() != role || from == to {
        return false;
    }
    if to.is_restricted() && piece != Piece::King {
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

fn rules_strategy() -> impl Strategy<Value = RuleSet> {
    (0usize..RepetitionMode::ALL.len()).prop_map(|i| RuleSet {
        repetition: RepetitionMode::ALL[i],
        ..RuleSet::default()
    })
}

/// Checks every property of one move from `before`; returns the game after it.
fn check_move(game: &mut Game, mv: Move) {
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
    assert_eq!(captured & !victims, Bitboard::EMPTY);
    assert_eq!(nb.soldiers(mover.opponent()), victims & !captured);
    // The mover and the king are never removed.
    assert!(!captured.contains(mv.to));
    assert!(!captured.contains(nb.king()));
    assert!(nb.pieces(mover).contains(mv.to));
    // No shield wall away from the edge: all captures are custodial.
    if !mv.to.is_edge() {
        let moved = moved_board(&board, mover, mv);
        assert!(capture::shield_wall(&moved, mover, mv.to, &game.rules()).is_empty());
        assert_eq!(
            captured,
            capture::custodial(&moved, mover, mv.to, &game.rules())
        );
    }
    // The king is never captured on an edge.
    if let Status::Won {
        reason: Reason::KingCaptured,
        ..
    } = game.status()
    {
        assert!(!nb.king().is_edge());
    }
    if nb.king().is_edge() {
        assert!(!capture::king_captured(nb, mv.to, &game.rules()));
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
fn moved_board(board: &Board, mover: Role, mv: Move) -> Board {
    let shift = |b: Bitboard| (b & !Bitboard::from_square(mv.from)) | Bitboard::from_square(mv.to);
    let is_king = mv.from == board.king();
    Board::from_parts(
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
    )
    .expect("a legal move leaves a valid board")
}

/// Every generated move passes the slow check, and every move the slow check accepts is
/// generated.
fn check_generation(pos: &Position) {
    let board = pos.board();
    let role = pos.to_move();
    let rules = RuleSet::COPENHAGEN;
    let list = movegen::legal_moves(board, role, &rules);
    assert_eq!(list.len() as u64, movegen::count_moves(board, role, &rules));
    assert_eq!(!list.is_empty(), movegen::has_move(board, role));
    let mut generated: Vec<Move> = list.to_vec();
    generated.sort();
    let mut slow = Vec::new();
    for from in board.pieces(role) {
        for to in Square::all() {
            if slow_is_legal(board, role, from, to) {
                slow.push(Move { from, to });
            }
        }
    }
    slow.sort();
    assert_eq!(generated, slow);
    // The capture moves are exactly the generated moves that capture custodially (the
    // king's moves onto the throne or a corner aside).
    let mut captures = hnefi::core::moves::MoveList::new();
    capture::capture_moves(board, role, &rules, &mut captures);
    let mut captures = captures.to_vec();
    captures.sort();
    let filtered: Vec<Move> = generated
        .iter()
        .copied()
        .filter(|m| !m.to.is_restricted() && capture::custodial(board, role, m.to, &rules).any())
        .collect();
    assert_eq!(captures, filtered);
    // The capturing squares (the move ordering's test) are exactly the squares on which a
    // landing piece captures, the restricted ones included.
    let capturing = capture::custodial_squares(board, role, &rules);
    for to in Square::all() {
        assert_eq!(
            capturing.contains(to),
            capture::custodial(board, role, to, &rules).any(),
            "{to}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_games_keep_every_invariant(
        rules in rules_strategy(),
        choices in proptest::collection::vec(any::<u16>(), 0..250),
    ) {
        let mut game = Game::new(rules);
        for c in choices {
            let moves = game.legal_moves();
            if moves.is_empty() {
                prop_assert!(game.status().is_over());
                break;
            }
            check_generation(game.position());
            let mv = moves[c as usize % moves.len()];
            check_move(&mut game, mv);
        }
    }

    #[test]
    fn positions_round_trip_through_opentafl(
        choices in proptest::collection::vec(any::<u16>(), 0..120),
    ) {
        let rules = RuleSet { repetition: RepetitionMode::Off, ..RuleSet::default() };
        let mut game = Game::new(rules);
        for c in choices {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            game.play(moves[c as usize % moves.len()]).expect("legal");
        }
        let board = *game.position().board();
        prop_assert_eq!(parse_opentafl(&to_opentafl(&board)), Ok(board));
        prop_assert_eq!(parse_rows(&board.to_rows().join("/")), Ok(board));
    }

    #[test]
    fn parsing_never_panics(s in "\\PC{0,40}") {
        let _ = s.parse::<Square>();
        let _ = s.parse::<Move>();
        let _ = s.parse::<Role>();
        let _ = s.parse::<RepetitionMode>();
        let _ = RecordMove::parse(&s);
        let _ = RecordToken::parse(&s);
        parse_on_every_size(&s);
    }

    #[test]
    fn parsing_near_valid_text_never_panics(
        s in "[/0-9tTKkx.XO a-o-]{0,240}",
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
}

#[test]
fn huge_run_lengths_are_rejected() {
    let s = format!("/{}/", ["99999999999999999999999999"; 11].join("/"));
    assert!(parse_opentafl::<S11>(&s).is_err());
    assert!(parse_opentafl::<S11>("/0/0/0/0/0/0/0/0/0/0/0/").is_err());
}
