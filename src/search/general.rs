//! The hand-written evaluation on any board under any rule set: the terms of
//! [`eval`](super::eval) (same names, same weights) read for the board's size and the
//! rules' escape squares, hostile squares and king. On 11x11 under Copenhagen's squares
//! and king they are the Copenhagen evaluation's terms exactly (tested); the Copenhagen
//! search keeps that faster version, and its learned network, which is 11x11 only.
//!
//! How each term reads elsewhere:
//! - the king's routes, escape squares, fork and open lines are to his escape squares: the
//!   corners, or under edge escape the four edges (a "line" is then the squares whose way
//!   to one edge is free);
//! - `king_distance` is to the nearest escape square (corner, or edge);
//! - `king_pressure` counts the empty throne where it is hostile to the king;
//! - hanging pieces use the rules' hostile squares and the king only where he captures;
//! - `corner_fight` counts blocks of a third of the board at each corner, and only where
//!   the king escapes to the corners;
//! - the piece-square classes are the distances from the nearer edges as on 11x11, the
//!   squares six or more from every edge (13x13, 15x15) joining the reference;
//! - the king-relative offsets are the same on every board.

use crate::core::bitboard::BitboardOf;
use crate::core::board::BoardOf;
use crate::core::capture::hostile_to;
use crate::core::geometry::Geometry;
use crate::core::king::Escape;
use crate::core::position::PositionOf;
use crate::core::role::Role;
use crate::core::square::SquareOf;

use super::eval::{HAND_TERMS, TERMS, Terms, Weights};
use super::threats::Threats;
use super::{placement, proximity};

/// The squares `pieces` can slide to in one move through `empty`, never stopping on
/// `restricted`, and the number of such moves (in one direction each square reached is
/// one move).
#[inline]
fn reach<G: Geometry>(
    pieces: BitboardOf<G>,
    empty: BitboardOf<G>,
    restricted: BitboardOf<G>,
) -> (BitboardOf<G>, u32) {
    let land = empty & !restricted;
    let mut all = BitboardOf::EMPTY;
    let mut count = 0;
    let steps: [fn(BitboardOf<G>) -> BitboardOf<G>; 4] = [
        BitboardOf::north,
        BitboardOf::east,
        BitboardOf::south,
        BitboardOf::west,
    ];
    for step in steps {
        let mut cur = pieces;
        let mut seen = BitboardOf::EMPTY;
        while cur.any() {
            cur = step(cur) & empty;
            seen |= cur;
        }
        let landed = seen & land;
        count += landed.count();
        all |= landed;
    }
    (all, count)
}

/// The soldiers of `victims` that a piece of the other side could capture by landing on
/// a square of `landable`, against a square of `hostile` beyond them.
#[inline]
fn hanging<G: Geometry>(
    victims: BitboardOf<G>,
    hostile: BitboardOf<G>,
    landable: BitboardOf<G>,
) -> BitboardOf<G> {
    (victims & hostile.south() & landable.north())
        | (victims & hostile.north() & landable.south())
        | (victims & hostile.west() & landable.east())
        | (victims & hostile.east() & landable.west())
}

/// The block of squares at each corner whose defenders and attackers `corner_fight`
/// weighs: a third of the board's side (4x4 on 11x11).
fn corner_blocks<G: Geometry>() -> [BitboardOf<G>; 4] {
    let n = G::SIZE;
    let side = (n + 1) / 3;
    let block = |low_file: bool, low_rank: bool| {
        SquareOf::<G>::all()
            .filter(|sq| {
                let f = if low_file {
                    sq.file()
                } else {
                    n - 1 - sq.file()
                };
                let r = if low_rank {
                    sq.rank()
                } else {
                    n - 1 - sq.rank()
                };
                f < side && r < side
            })
            .collect::<BitboardOf<G>>()
    };
    [
        block(true, true),
        block(false, true),
        block(true, false),
        block(false, false),
    ]
}

/// The terms written by hand, the first [`HAND_TERMS`] of [`terms`].
fn hand_terms<G: Geometry>(pos: &PositionOf<G>, t: &Threats<G>) -> [i32; HAND_TERMS] {
    let b = pos.board();
    let rules = &t.rules;
    let attackers = b.attackers();
    let defenders = b.defenders();
    let king = b.king();
    let kb = b.king_bb();
    let occ = b.occupied();
    let empty = b.empty();
    let defenders_move = pos.to_move() == Role::Defender;
    let n = i32::from(G::SIZE);

    // The king's routes to his escape squares.
    let occ_nk = occ ^ kb;
    let lines = t.lines(occ_nk);
    let kreach = t.king_reach(b);
    let mut routes = 0;
    let mut seen_once = BitboardOf::EMPTY;
    let mut seen_twice = BitboardOf::EMPTY;
    let mut open = 0;
    for l in lines {
        open += l.count() as i32;
        if (kreach & l).any() {
            routes += 1;
        }
        seen_twice |= seen_once & l;
        seen_once |= l;
    }
    let fork = defenders_move && (kreach & seen_twice).any();
    let escapes = (kreach & seen_once).count() as i32;
    let reach2 = reach(kreach, empty, t.restricted).0 | kreach;
    let routes3 = lines.iter().filter(|l| (reach2 & **l).any()).count() as i32;
    let lone = if defenders.is_empty() {
        reach2.count() as i32 - G::NUM_SQUARES as i32
    } else {
        0
    };
    let (kf, kr) = (i32::from(king.file()), i32::from(king.rank()));
    let (df, dr) = (kf.min(n - 1 - kf), kr.min(n - 1 - kr));
    let dist = match rules.escape {
        Escape::Corners => df + dr,
        Escape::Edges => df.min(dr),
    };

    // Pressure on the king and the attackers' ring.
    let around = kb.neighbours();
    let throne_hostile = if rules.throne && rules.throne_hostility.king {
        BitboardOf::THRONE & empty
    } else {
        BitboardOf::EMPTY
    };
    let pressure = (around & (attackers | throne_hostile)).count() as i32;
    let not_att = !attackers;
    let king_region = kb.flood(not_att);
    let enclosed = (king_region & BitboardOf::EDGE).is_empty();
    let region = if (defenders & !king_region).is_empty() {
        king_region
    } else {
        b.defenders_and_king().flood(not_att)
    };

    // Mobility and hanging pieces.
    let (att_reach, att_moves) = reach(attackers, empty, t.restricted);
    let (def_reach, def_moves) = reach(defenders, empty, t.restricted);
    let def_reach = if rules.king_armed.hammer() {
        def_reach | (kreach & !t.restricted)
    } else {
        def_reach
    };
    let hang_def =
        (hanging(defenders, hostile_to(b, Role::Defender, rules), att_reach).count() as i32).min(3);
    let hang_att =
        (hanging(attackers, hostile_to(b, Role::Attacker, rules), def_reach).count() as i32).min(3);
    let (def_to_move, att_to_move) = if defenders_move { (1, 0) } else { (0, 1) };
    let fight = if rules.escape == Escape::Corners && rules.corners {
        corner_fight(attackers, b.defenders_and_king())
    } else {
        0
    };

    [
        -(attackers.count() as i32),
        defenders.count() as i32,
        routes,
        routes3,
        escapes,
        i32::from(fork),
        kreach.count() as i32,
        -dist,
        -pressure,
        -i32::from(enclosed),
        region.count() as i32,
        (region & BitboardOf::EDGE).count() as i32,
        open,
        -hang_def * def_to_move,
        -hang_def * att_to_move,
        hang_att * att_to_move,
        hang_att * def_to_move,
        def_moves as i32 + kreach.count() as i32 - att_moves as i32,
        if defenders_move { 1 } else { -1 },
        lone,
        fight,
    ]
}

/// The `corner_fight` term: over the corners, the defenders (the king counted) in its
/// block beyond the attackers there.
fn corner_fight<G: Geometry>(attackers: BitboardOf<G>, defenders: BitboardOf<G>) -> i32 {
    corner_blocks::<G>()
        .iter()
        .map(|&z| ((defenders & z).count() as i32 - (attackers & z).count() as i32).max(0))
        .sum()
}

/// The class of the square at `file`, `rank` of a board of `n` files (see
/// [`placement`]): the 11x11 class of its distances from the nearer edges, or `None` six
/// or more from every edge.
fn class(n: u8, file: u8, rank: u8) -> Option<usize> {
    let f = file.min(n - 1 - file);
    let r = rank.min(n - 1 - rank);
    let (a, b) = if f <= r { (f, r) } else { (r, f) };
    (b <= 5).then(|| usize::from(b * (b + 1) / 2 + a))
}

/// The piece-square terms on any board, as [`placement::terms`] counts them on 11x11.
fn placement_terms<G: Geometry>(b: &BoardOf<G>) -> [i32; placement::TERMS] {
    let mut out = [0; placement::TERMS];
    let kinds = [b.king_bb(), b.attackers(), b.defenders()];
    for (kind, pieces) in kinds.into_iter().enumerate() {
        for sq in pieces {
            let term = class(G::SIZE, sq.file(), sq.rank())
                .filter(|c| (1..=placement::KIND_TERMS).contains(c))
                .map(|c| kind * placement::KIND_TERMS + c - 1);
            if let Some(slot) = term.and_then(|i| out.get_mut(i)) {
                *slot += 1;
            }
        }
    }
    out
}

/// The king-relative terms on any board, as [`proximity::terms`] counts them on 11x11.
fn proximity_terms<G: Geometry>(b: &BoardOf<G>) -> [i32; proximity::TERMS] {
    let mut out = [0; proximity::TERMS];
    let king = b.king();
    for (base, pieces) in [(0, b.attackers()), (proximity::OFFSETS, b.defenders())] {
        for sq in pieces {
            let df = usize::from(sq.file().abs_diff(king.file()));
            let dr = usize::from(sq.rank().abs_diff(king.rank()));
            let (a, far) = (df.min(dr), df.max(dr));
            if (1..=proximity::REACH).contains(&far)
                && let Some(slot) = out.get_mut(base + proximity::offset_index(a, far))
            {
                *slot += 1;
            }
        }
    }
    out
}

/// The value of every term of `pos` under the rules of `t` (defenders' point of view),
/// in the order of [`eval::TERM_NAMES`](super::eval::TERM_NAMES).
pub fn terms<G: Geometry>(pos: &PositionOf<G>, t: &Threats<G>) -> Terms {
    let b = pos.board();
    let mut out = [0; TERMS];
    let all = hand_terms(pos, t)
        .into_iter()
        .chain(placement_terms(b))
        .chain(proximity_terms(b));
    for (slot, v) in out.iter_mut().zip(all) {
        *slot = v;
    }
    out
}

/// The evaluation of `pos` for the side to move under the rules of `t` with the weights
/// `w`: the weighed [`terms`], signed for the mover.
pub fn evaluate<G: Geometry>(pos: &PositionOf<G>, t: &Threats<G>, w: &Weights) -> i32 {
    let s: i32 = terms(pos, t)
        .iter()
        .zip(w.0.iter())
        .map(|(t, w)| t * w)
        .sum();
    match pos.to_move() {
        Role::Defender => s,
        Role::Attacker => -s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::capture;
    use crate::core::geometry::{BoardSize, S7, S9, S11, S13, S15};
    use crate::core::moves::MoveListOf;
    use crate::core::position::Position;
    use crate::core::preset::RulePreset;
    use crate::core::rng::SplitMix64;
    use crate::core::rules::RuleSet;
    use crate::search::eval;

    /// Positions along random games from the start of `G` under `rules`.
    fn random_positions<G: Geometry>(
        rules: &RuleSet,
        seed: u64,
        games: usize,
    ) -> Vec<PositionOf<G>> {
        let mut rng = SplitMix64::new(seed);
        let mut out = Vec::new();
        for _ in 0..games {
            let mut pos = PositionOf::<G>::start();
            for _ in 0..rng.below(120) {
                let list: MoveListOf<G> = pos.legal_moves(rules);
                let Some(&mv) = list.as_slice().get(rng.below(list.len().max(1))) else {
                    break;
                };
                let effect = pos.play_unchecked(mv, rules);
                out.push(pos);
                if effect.win.is_some() {
                    break;
                }
            }
        }
        out
    }

    #[test]
    fn on_copenhagen_11x11_the_terms_are_the_copenhagen_evaluations() {
        let rules = RuleSet::COPENHAGEN;
        let t = Threats::<S11>::new(&rules);
        let w = Weights::default();
        let ev = eval::Evaluator::new(&w);
        for pos in random_positions::<S11>(&rules, 5, 40) {
            let p: Position = pos;
            assert_eq!(terms(&p, &t), eval::terms(&p), "{p:?}");
            assert_eq!(evaluate(&p, &t, &w), eval::evaluate(&p, &ev), "{p:?}");
            assert_eq!(t.escape_lines(p.board()), eval::escape_lines(p.board()));
            assert_eq!(t.escape_blocks(p.board()), eval::escape_blocks(p.board()));
            assert_eq!(t.quiet_win_near(p.board()), eval::quiet_win_near(p.board()));
            for us in [Role::Attacker, Role::Defender] {
                assert_eq!(
                    t.threat_in_one(p.board(), us),
                    eval::threat_in_one(p.board(), us),
                    "{p:?}"
                );
            }
            assert_eq!(
                t.king_capture(p.board()).is_some(),
                eval::king_capturable(p.board()),
                "{p:?}"
            );
        }
    }

    fn symmetric<G: Geometry>(preset: RulePreset) {
        let Some(size) = BoardSize::ALL.into_iter().find(|s| s.files() == G::SIZE) else {
            panic!("no size {}", G::SIZE);
        };
        let Ok(variant) = preset.variant(size) else {
            return;
        };
        let rules = variant.rules();
        let t = Threats::<G>::new(&rules);
        let w = Weights::default();
        let Ok(start) = variant.start_position::<G>() else {
            panic!("{preset} start");
        };
        let e = evaluate(&start, &t, &w);
        for sym in 0..8 {
            assert_eq!(evaluate(&start.transform(sym), &t, &w), e, "{preset} {sym}");
        }
        for pos in random_positions::<G>(&rules, 9, 4) {
            let e = evaluate(&pos, &t, &w);
            for sym in 0..8 {
                assert_eq!(evaluate(&pos.transform(sym), &t, &w), e, "{preset} {sym}");
            }
        }
    }

    /// `Threats::king_capture` finds a capturing attacker move exactly when one of the
    /// attackers' moves captures the king, on every board of every family.
    fn king_capture_is_exact<G: Geometry>(preset: RulePreset) -> usize {
        let Some(size) = BoardSize::ALL.into_iter().find(|s| s.files() == G::SIZE) else {
            panic!("no size {}", G::SIZE);
        };
        let Ok(variant) = preset.variant(size) else {
            return 0;
        };
        let rules = variant.rules();
        let t = Threats::<G>::new(&rules);
        let mut found = 0;
        for pos in random_positions::<G>(&rules, 17, 30) {
            let board = pos.board();
            let mut list = MoveListOf::<G>::new();
            crate::core::movegen::generate_under(board, Role::Attacker, &rules, &mut list);
            let brute = list.as_slice().iter().any(|mv| {
                let mut after = *board;
                after.move_piece(Role::Attacker, mv.from, mv.to);
                capture::king_captured(&after, mv.to, &rules)
            });
            let fast = t.king_capture(board);
            assert_eq!(fast.is_some(), brute, "{preset} {size}: {pos:?}");
            if let Some(mv) = fast {
                assert!(list.as_slice().contains(&mv), "{preset} {size}: {mv:?}");
                found += 1;
            }
        }
        found
    }

    #[test]
    fn the_king_capture_threat_is_exact_on_every_board() {
        let mut families = 0;
        for preset in RulePreset::ALL {
            let found = king_capture_is_exact::<S7>(preset)
                + king_capture_is_exact::<S9>(preset)
                + king_capture_is_exact::<S11>(preset)
                + king_capture_is_exact::<S13>(preset)
                + king_capture_is_exact::<S15>(preset);
            families += usize::from(found > 0);
        }
        // Not vacuous: most families' random games reach kings in danger (not Fetlar's,
        // whose king is taken on four sides).
        assert!(families * 2 > RulePreset::ALL.len(), "{families} families");
    }

    #[test]
    fn every_family_is_evaluated_symmetrically_on_each_of_its_boards() {
        for preset in RulePreset::ALL {
            symmetric::<S7>(preset);
            symmetric::<S9>(preset);
            symmetric::<S11>(preset);
            symmetric::<S13>(preset);
            symmetric::<S15>(preset);
        }
    }
}
