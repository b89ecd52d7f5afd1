//! The hand-written evaluation: what a position of any board, under any rule set hnefi
//! models, is worth to the side to move. Copenhagen 11x11 is one instance of it; the
//! learned correction of a board's network is added above it, by the search's
//! [`knowledge`](super::knowledge).
//!
//! Terms (computed from the defenders' point of view, then signed for the mover; their
//! names and weights are [`terms`](super::terms)'s):
//! - material: defender soldiers are worth more than attackers;
//! - the king's routes to his escape squares: those he can reach in two moves, squares
//!   from which he would see two at once (a fork), his mobility and his distance to the
//!   nearest;
//! - attackers next to the king, and whether the king's region still touches the edge
//!   (the attackers' progress toward encirclement);
//! - pieces that the opponent can capture with one move (hanging), weighted by who moves;
//! - mobility of both sides;
//! - where each piece stands (piece-square terms, [`placement`]), among them the
//!   attackers guarding the corners (the diagonal blocks) and next to a corner, where a
//!   single defender captures them;
//! - who stands near the king, by offset ([`proximity`]): how far the attackers' net has
//!   closed, and his escort;
//! - a king left without soldiers: the squares still open to him, which the attackers
//!   take away to trap him.
//!
//! How the terms read for the board and the rules:
//! - the king's escape squares are the corners, or under edge escape the four edges (a
//!   "line" is then the squares whose way to one edge is free);
//! - `king_distance` is to the nearest escape square (corner, or edge);
//! - `king_pressure` counts the empty throne where it is hostile to the king;
//! - hanging pieces use the rules' hostile squares and the king only where he captures;
//! - `corner_fight` counts blocks of a third of the board at each corner (4x4 on 11x11),
//!   and only where the king escapes to the corners;
//! - the piece-square classes are the distances from the nearer edges, the squares six
//!   or more from every edge (13x13, 15x15) joining the reference;
//! - the king-relative offsets are the same on every board.

use crate::core::bitboard::BitboardOf;
use crate::core::board::BoardOf;
use crate::core::capture::hostile_to;
use crate::core::geometry::Geometry;
use crate::core::king::Escape;
use crate::core::movegen::soldier_reach_under;
use crate::core::position::PositionOf;
use crate::core::role::Role;
use crate::core::square::SquareOf;

use super::terms::{HAND_TERMS, TERMS, Terms, Weights};
use super::threats::Threats;
use super::{placement, proximity};

/// The soldiers of `victims` that a piece of the other side could capture by landing on
/// a square of `landable`, against a square of `hostile` beyond them.
#[inline(always)]
fn hanging<G: Geometry>(
    victims: BitboardOf<G>,
    hostile: BitboardOf<G>,
    landable: BitboardOf<G>,
) -> BitboardOf<G> {
    // Landing on t = v - d with the hostile square at v + d, for the four directions d.
    (victims & hostile.south() & landable.north())
        | (victims & hostile.north() & landable.south())
        | (victims & hostile.west() & landable.east())
        | (victims & hostile.east() & landable.west())
}

/// The block of squares at each corner whose defenders and attackers `corner_fight`
/// weighs, a third of the board's side (4x4 on 11x11); none where the king does not
/// escape to the corners, so that the term is zero there.
fn corner_blocks<G: Geometry>(t: &Threats<G>) -> [BitboardOf<G>; 4] {
    if t.rules.escape != Escape::Corners || !t.rules.corners.any() {
        return [BitboardOf::EMPTY; 4];
    }
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

/// The `corner_fight` term: over the corners, the defenders (the king counted) in its
/// block beyond the attackers there.
#[inline(always)]
fn corner_fight<G: Geometry>(
    blocks: &[BitboardOf<G>; 4],
    attackers: BitboardOf<G>,
    defenders: BitboardOf<G>,
) -> i32 {
    blocks
        .iter()
        .map(|&z| ((defenders & z).count() as i32 - (attackers & z).count() as i32).max(0))
        .sum()
}

/// The terms written by hand, the first [`HAND_TERMS`] of [`terms`], with the corner
/// blocks of [`corner_blocks`].
#[inline(always)]
fn hand_terms<G: Geometry>(
    pos: &PositionOf<G>,
    t: &Threats<G>,
    blocks: &[BitboardOf<G>; 4],
) -> [i32; HAND_TERMS] {
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
    // The escape squares in sight he can move to, and his routes of three moves: the
    // squares he reaches in two (a soldier's slides from his first squares, which leave
    // out the restricted squares), the opponent's moves ignored.
    let escapes = (kreach & seen_once).count() as i32;
    let reach2 = soldier_reach_under(kreach, empty, t.restricted).0 | kreach;
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
    // Usually every defender stands in the king's region, and it is theirs.
    let region = if (defenders & !king_region).is_empty() {
        king_region
    } else {
        b.defenders_and_king().flood(not_att)
    };

    // Mobility and hanging pieces.
    let (att_reach, att_moves) = soldier_reach_under(attackers, empty, t.restricted);
    let (def_reach, def_moves) = soldier_reach_under(defenders, empty, t.restricted);
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
        corner_fight(blocks, attackers, b.defenders_and_king()),
    ]
}

/// The value of every term of `pos` under the rules of `t` (defenders' point of view),
/// in the order of [`TERM_NAMES`](super::terms::TERM_NAMES): the one list of the
/// evaluation's features, which the tuner fits and an [`Evaluator`] weighs (the
/// piece-square and king-relative terms through its tables, which sum the same products).
pub(crate) fn terms<G: Geometry>(pos: &PositionOf<G>, t: &Threats<G>) -> Terms {
    let b = pos.board();
    let mut out = [0; TERMS];
    let all = hand_terms(pos, t, &corner_blocks(t))
        .into_iter()
        .chain(placement::terms(b.king_bb(), b.attackers(), b.defenders()))
        .chain(proximity::terms(b.king(), b.attackers(), b.defenders()));
    for (slot, v) in out.iter_mut().zip(all) {
        *slot = v;
    }
    out
}

/// The evaluation of one rule set on board `G` with one set of weights, made ready for
/// the search: the hand-written terms' weights, the piece-square weights spread over the
/// squares and the king-relative ones over rings around each square, so that a piece
/// costs one look-up, and the corner blocks, computed once.
#[derive(Clone, Debug)]
pub(crate) struct Evaluator<G: Geometry> {
    threats: Threats<G>,
    blocks: [BitboardOf<G>; 4],
    hand: [i32; HAND_TERMS],
    tables: placement::Tables<G>,
    near: [i32; proximity::TERMS],
    rings: proximity::Rings<G>,
}

impl<G: Geometry> Evaluator<G> {
    /// The evaluator of the weights `w` under the rules of `t`.
    pub(crate) fn new(t: &Threats<G>, w: &Weights) -> Evaluator<G> {
        let weight = |i: usize| w.0.get(i).copied().unwrap_or(0);
        Evaluator {
            threats: *t,
            blocks: corner_blocks(t),
            hand: std::array::from_fn(weight),
            tables: placement::Tables::new(&std::array::from_fn(|i| weight(HAND_TERMS + i))),
            near: std::array::from_fn(|i| weight(HAND_TERMS + placement::TERMS + i)),
            rings: proximity::Rings::new(),
        }
    }

    /// The weighted sum of the [`terms`] of `pos`, from the defenders' point of view.
    // Out of line, as the knowledge's `evaluate` that calls it (docs/experiments.md,
    // session 46).
    #[inline(never)]
    pub(crate) fn score(&self, pos: &PositionOf<G>) -> i32 {
        let b: &BoardOf<G> = pos.board();
        let hand: i32 = hand_terms(pos, &self.threats, &self.blocks)
            .iter()
            .zip(self.hand.iter())
            .map(|(t, w)| t * w)
            .sum();
        hand + self.tables.score(b.king(), b.attackers(), b.defenders())
            + self
                .rings
                .score(&self.near, b.king(), b.attackers(), b.defenders())
    }

    /// The evaluation of `pos` for the side to move, in centi-units: [`Evaluator::score`]
    /// signed for the mover (the `tempo` term makes it a bonus for the mover).
    #[cfg(test)]
    pub(crate) fn evaluate(&self, pos: &PositionOf<G>) -> i32 {
        for_mover(pos.to_move(), self.score(pos))
    }
}

/// A score from the defenders' point of view, signed for `side`.
#[inline(always)]
pub(crate) fn for_mover(side: Role, s: i32) -> i32 {
    match side {
        Role::Defender => s,
        Role::Attacker => -s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::{BoardSize, S7, S9, S11, S13, S15};
    use crate::core::notation::position_from_opentafl;
    use crate::core::position::Position;
    use crate::core::preset::RulePreset;
    use crate::core::random_games::random_positions;
    use crate::core::rng::SplitMix64;
    use crate::core::rules::RuleSet;
    use crate::search::terms::{term_index, weigh};

    fn copenhagen() -> Threats<S11> {
        Threats::new(&RuleSet::COPENHAGEN)
    }

    #[test]
    fn start_is_symmetric_and_small() {
        let pos = Position::start();
        let ev = Evaluator::new(&copenhagen(), &Weights::default());
        let e = ev.evaluate(&pos);
        assert!(e.abs() < 1000, "{e}");
        for sym in 0..8 {
            assert_eq!(ev.evaluate(&pos.transform(sym)), e);
        }
    }

    #[test]
    fn lone_king_counts_the_squares_taken_from_him() {
        let Some(i) = term_index("lone_king") else {
            panic!("no lone_king term");
        };
        for (board, want) in [
            // On a6, walled in by a5, b6 and a7: no square left.
            ("/11/11/11/11/t10/Kt9/t10/11/11/11/11/", -121),
            // a5 free, and from there only b5 (c5 and a4 stand in the way).
            ("/11/11/11/t10/2t8/Kt9/t10/11/11/11/11/", -119),
            // The same with a defender soldier left: the term is off.
            ("/4T6/11/11/t10/2t8/Kt9/t10/11/11/11/11/", 0),
        ] {
            for role in [Role::Attacker, Role::Defender] {
                let Ok(pos) = position_from_opentafl(board, role) else {
                    panic!("{board}");
                };
                assert_eq!(terms(&pos, &copenhagen())[i], want, "{board} {role:?}");
            }
        }
    }

    #[test]
    fn corner_fight_counts_the_defenders_beyond_the_guards() {
        let Some(i) = term_index("corner_fight") else {
            panic!("no corner_fight term");
        };
        let blocks = corner_blocks(&copenhagen());
        assert!(blocks.iter().all(|z| z.count() == 16));
        let corners = BitboardOf::<S11>::CORNERS;
        assert_eq!(
            blocks.iter().fold(BitboardOf::EMPTY, |a, &z| a | z) & corners,
            corners
        );
        for (board, want) in [
            // Top left: the king on b10 and c9 against a9; bottom right: j2 against h2
            // and i1, no excess.
            ("/11/1K9/t1T8/11/11/11/11/11/11/7t1T1/8t2/", 1),
            // One more defender on d8, in the top left block.
            ("/11/1K9/t1T8/3T7/11/11/11/11/11/7t1T1/8t2/", 2),
            // e8 is outside it.
            ("/11/1K9/t1T8/4T6/11/11/11/11/11/7t1T1/8t2/", 1),
        ] {
            for role in [Role::Attacker, Role::Defender] {
                let Ok(pos) = position_from_opentafl(board, role) else {
                    panic!("{board}");
                };
                assert_eq!(terms(&pos, &copenhagen())[i], want, "{board} {role:?}");
            }
        }
    }

    /// On every board of `preset`: the evaluator's score is the weighed terms (with the
    /// default weights and with random ones, every piece-square term in play), and it is
    /// the same under the board's symmetries.
    fn weighed_and_symmetric<G: Geometry>(preset: RulePreset) {
        let Some(size) = BoardSize::ALL.into_iter().find(|s| s.files() == G::SIZE) else {
            panic!("no size {}", G::SIZE);
        };
        let Ok(variant) = preset.variant(size) else {
            return;
        };
        let rules = variant.rules();
        let t = Threats::<G>::new(&rules);
        let Ok(start) = variant.start_position::<G>() else {
            panic!("{preset} start");
        };
        let mut rng = SplitMix64::new(3);
        let random = Weights(std::array::from_fn(|_| rng.below(201) as i32 - 100));
        for w in [Weights::default(), random] {
            let ev = Evaluator::new(&t, &w);
            let mut positions = random_positions::<G>(&rules, start, 9, 4);
            positions.push(start);
            for pos in positions {
                let e = ev.evaluate(&pos);
                assert_eq!(e, for_mover(pos.to_move(), weigh(&terms(&pos, &t), &w)));
                for sym in 0..8 {
                    assert_eq!(ev.evaluate(&pos.transform(sym)), e, "{preset} {sym}");
                }
            }
        }
    }

    #[test]
    fn every_family_is_evaluated_as_weighed_and_symmetrically_on_each_of_its_boards() {
        for preset in RulePreset::ALL {
            weighed_and_symmetric::<S7>(preset);
            weighed_and_symmetric::<S9>(preset);
            weighed_and_symmetric::<S11>(preset);
            weighed_and_symmetric::<S13>(preset);
            weighed_and_symmetric::<S15>(preset);
        }
    }
}
