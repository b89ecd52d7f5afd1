//! Legal move generation (without the repetition rule, which needs the game history).
//!
//! Moves are rook slides through empty squares. Only the king may stop on the throne or a
//! corner; every piece may pass over the empty throne. Generation scans rays with
//! precomputed masks and `trailing_zeros`/`leading_zeros`; counting (for perft) uses
//! Kogge-Stone fills of all pieces of a side at once: in one direction each reached empty
//! square belongs to exactly one move.

use super::bitboard::{BitboardOf, occluded_fill_down, occluded_fill_up};
use super::board::BoardOf;
use super::geometry::{Bits, Geometry, SHADOW_MASK, TABLE};
use super::moves::{MoveListOf, MoveOf, Sink};
use super::role::Role;
use super::rules::RuleSet;
use super::speed::SpeedLimits;
use super::square::SquareOf;

/// One plus the index of the lowest set bit, or 0 for an empty set: north and east
/// blockers are the lowest bits of the ray.
#[inline(always)]
fn nearest_up<B: Bits>(b: B) -> usize {
    if b.is_zero() {
        0
    } else {
        b.trailing_zeros() as usize + 1
    }
}

/// One plus the index of the highest set bit, or 0 for an empty set: south and west
/// blockers are the highest bits of the ray.
#[inline(always)]
fn nearest_down<B: Bits>(b: B) -> usize {
    (B::WIDTH - b.leading_zeros()) as usize
}

/// The squares a piece on `sq` can slide to through empty squares (restricted squares
/// included; the caller removes them for soldiers).
#[inline(always)]
pub(crate) fn slides<G: Geometry>(sq: SquareOf<G>, occupied: BitboardOf<G>) -> BitboardOf<G> {
    let t = G::tables();
    let i = sq.index() & (TABLE - 1);
    let occ = occupied.0;
    let rays = &t.rays[i];
    // Each ray without what lies from its first blocker on (north and east run towards
    // higher indices, south and west towards lower).
    let up = |d: usize| {
        let ray = rays[d];
        ray & !t.shadow[nearest_up(ray & occ) & SHADOW_MASK][d]
    };
    let down = |d: usize| {
        let ray = rays[d];
        ray & !t.shadow[nearest_down(ray & occ) & SHADOW_MASK][d]
    };
    BitboardOf(up(0) | up(1) | down(2) | down(3))
}

/// [`slides`] of at most `limit` squares (a speed limit).
#[inline]
pub(crate) fn slides_at_most<G: Geometry>(
    sq: SquareOf<G>,
    occupied: BitboardOf<G>,
    limit: u8,
) -> BitboardOf<G> {
    let empty = !occupied & BitboardOf::FULL;
    reach_at_most(BitboardOf::from_square(sq), empty, BitboardOf::FULL, limit).0
}

/// The squares of `land` the pieces of `from` reach sliding at most `limit` squares
/// through `empty`, and the number of such slides: in one direction each reached square
/// is one piece's slide, so the count is the sum of the steps' population counts.
#[inline]
fn reach_at_most<G: Geometry>(
    from: BitboardOf<G>,
    empty: BitboardOf<G>,
    land: BitboardOf<G>,
    limit: u8,
) -> (BitboardOf<G>, u32) {
    let steps: [fn(BitboardOf<G>) -> BitboardOf<G>; 4] = [
        BitboardOf::north,
        BitboardOf::south,
        BitboardOf::east,
        BitboardOf::west,
    ];
    let mut reach = BitboardOf::EMPTY;
    let mut count = 0;
    for step in steps {
        let mut cur = from;
        for _ in 0..limit {
            cur = step(cur) & empty;
            if cur.is_empty() {
                break;
            }
            reach |= cur & land;
            count += (cur & land).count();
        }
    }
    (reach, count)
}

/// The squares the king on `board` may move to under `rules` (his speed limit included).
#[inline(always)]
pub(crate) fn king_targets<G: Geometry>(board: &BoardOf<G>, rules: &RuleSet) -> BitboardOf<G> {
    let king = board.king();
    if rules.slides_freely() {
        return slides(king, board.occupied()) & !rules.king_barred::<G>();
    }
    // A wall stops him as a piece would, and he may not stop on it.
    let occupied = board.occupied() | rules.walls(Role::Defender, true, king);
    let reach = match rules.speed.king {
        None => slides(king, occupied),
        Some(limit) => slides_at_most(king, occupied, limit),
    };
    reach & !rules.king_barred::<G>()
}

/// True when the piece of `role` on `from` may slide as far as `to` under `rules`' speed
/// limits (the path and the squares are the caller's to check).
#[inline]
fn within_speed_limit<G: Geometry>(
    board: &BoardOf<G>,
    role: Role,
    from: SquareOf<G>,
    to: SquareOf<G>,
    rules: &RuleSet,
) -> bool {
    let king = role == Role::Defender && from == board.king();
    SpeedLimits::allows(rules.speed.of(role, king), from, to)
}

/// True when the piece of `role` on `from` may slide to `to` under `rules`' speed limits
/// and walls ([`RuleSet::walls`]); that the line is free of pieces is the caller's to
/// check.
#[inline(always)]
pub(crate) fn may_slide<G: Geometry>(
    board: &BoardOf<G>,
    role: Role,
    from: SquareOf<G>,
    to: SquareOf<G>,
    rules: &RuleSet,
) -> bool {
    rules.slides_freely() || may_slide_restricted(board, role, from, to, rules)
}

/// [`may_slide`] under rules with walls or speed limits.
#[inline(never)]
fn may_slide_restricted<G: Geometry>(
    board: &BoardOf<G>,
    role: Role,
    from: SquareOf<G>,
    to: SquareOf<G>,
    rules: &RuleSet,
) -> bool {
    let king = role == Role::Defender && from == board.king();
    let walls = rules.walls(role, king, from);
    within_speed_limit(board, role, from, to, rules)
        && (walls.is_empty()
            || ((between(from, to) | BitboardOf::from_square(to)) & walls).is_empty())
}

/// The pieces of `occupied` that see `sq` along a free line: the nearest occupied square
/// in each of the four directions (the pieces that could slide to `sq` if it is empty).
#[inline]
pub(crate) fn nearest_blockers<G: Geometry>(
    sq: SquareOf<G>,
    occupied: BitboardOf<G>,
) -> BitboardOf<G> {
    let t = G::tables();
    let i = sq.index() & (TABLE - 1);
    let occ = occupied.0;
    let (up, down) = t.rays[i].split_at(2);
    let nearest = up
        .iter()
        .map(|&ray| nearest_up(ray & occ))
        .chain(down.iter().map(|&ray| nearest_down(ray & occ)));
    let mut out = G::Bits::ZERO;
    for b in nearest {
        // One plus the blocker's index, 0 for none.
        if b > 0 {
            out |= t.square_bits[(b - 1) & (TABLE - 1)];
        }
    }
    BitboardOf(out)
}

/// The squares strictly between two squares on a line (empty if not on a line).
pub(crate) fn between<G: Geometry>(a: SquareOf<G>, b: SquareOf<G>) -> BitboardOf<G> {
    let t = G::tables();
    let (ai, bi) = (a.index() & (TABLE - 1), b.index() & (TABLE - 1));
    for (&r, &beyond_b) in t.rays[ai].iter().zip(&t.rays[bi]) {
        if r.has(bi as u32) {
            return BitboardOf(r & !beyond_b & !t.square_bits[bi]);
        }
    }
    BitboardOf::EMPTY
}

/// Appends every move of `role` to `list` under Copenhagen's squares (the throne and the
/// corners restricted, the king free to return to the throne), which every rule set the
/// search plays shares (repetition not considered).
#[inline]
pub fn generate<G: Geometry>(board: &BoardOf<G>, role: Role, list: &mut MoveListOf<G>) {
    generate_under(board, role, &RuleSet::COPENHAGEN, list);
}

/// Appends every move of `role` under `rules` to `list` (repetition not considered).
///
/// Soldiers are generated a direction and a distance at a time: the set of soldiers
/// shifted `k` steps through empty squares gives every move of length `k` in that
/// direction at once, and each destination names its origin by arithmetic. The king's
/// moves come from his rays.
#[inline(always)]
pub(crate) fn generate_under<G: Geometry>(
    board: &BoardOf<G>,
    role: Role,
    rules: &RuleSet,
    list: &mut MoveListOf<G>,
) {
    let empty = board.empty();
    let land = !rules.restricted::<G>().0;
    let soldiers = board.soldiers(role);
    let mut sink = list.sink();
    if rules.slides_freely() {
        push_slides::<G, false>(&mut sink, soldiers.0, empty.0, land, 0);
        if role == Role::Defender {
            // king_targets' own free path, written out: through it, perft 5 runs more
            // instructions (callgrind; docs/experiments.md).
            let king = board.king();
            let targets = slides(king, board.occupied()) & !rules.king_barred::<G>();
            push_all(&mut sink, king, targets);
        }
        return;
    }
    // No board is as long as the largest limit, which is therefore none.
    let limit = rules.speed.soldier(role).unwrap_or(u8::MAX);
    if rules.has_walls() {
        // The attackers on forts and the other soldiers meet different walls.
        let inside = fort_soldiers(board, role, rules);
        for (group, on_fort) in [(inside, true), (soldiers & !inside, false)] {
            let walls = rules.walls_of::<G>(on_fort);
            push_slides::<G, true>(&mut sink, group.0, (empty & !walls).0, land, limit);
        }
    } else {
        push_slides::<G, true>(&mut sink, soldiers.0, empty.0, land, limit);
    }
    if role == Role::Defender {
        push_all(&mut sink, board.king(), king_targets(board, rules));
    }
}

/// The soldiers of `role` standing on an attacker fort (attackers only).
#[inline]
fn fort_soldiers<G: Geometry>(board: &BoardOf<G>, role: Role, rules: &RuleSet) -> BitboardOf<G> {
    if role == Role::Attacker {
        board.soldiers(role) & rules.attacker_forts.squares::<G>()
    } else {
        BitboardOf::EMPTY
    }
}

/// Pushes every slide of `soldiers` through `empty` of at most `limit` squares (when
/// `LIMITED`; else of any length) that ends on `land`, a direction and a distance at a
/// time.
#[inline(always)]
fn push_slides<G: Geometry, const LIMITED: bool>(
    sink: &mut Sink<'_, G>,
    soldiers: G::Bits,
    empty: G::Bits,
    land: G::Bits,
    limit: u8,
) {
    let not_a = empty & !G::FILE_FIRST;
    let not_last = empty & !G::FILE_LAST;
    let n = u32::from(G::SIZE);
    let limit = u32::from(limit);
    let mut cur = soldiers;
    let mut k = 0u32;
    while !cur.is_zero() && (!LIMITED || k < limit) {
        k += 1;
        cur = (cur << n) & empty;
        push_layer(sink, cur & land, n * k, true);
    }
    cur = soldiers;
    k = 0;
    while !cur.is_zero() && (!LIMITED || k < limit) {
        k += 1;
        cur = (cur >> n) & empty;
        push_layer(sink, cur & land, n * k, false);
    }
    cur = soldiers;
    k = 0;
    while !cur.is_zero() && (!LIMITED || k < limit) {
        k += 1;
        cur = (cur << 1) & not_a;
        push_layer(sink, cur & land, k, true);
    }
    cur = soldiers;
    k = 0;
    while !cur.is_zero() && (!LIMITED || k < limit) {
        k += 1;
        cur = (cur >> 1) & not_last;
        push_layer(sink, cur & land, k, false);
    }
}

/// Pushes the moves that end on `targets` after sliding `dist` index steps up (towards
/// higher indices) or down. One 128-bit bit-scan loop per layer: on real-game positions
/// it beats two 64-bit loops, whose extra loop exits mispredict (`cargo bench --bench
/// core`; docs/experiments.md).
#[inline(always)]
fn push_layer<G: Geometry>(sink: &mut Sink<'_, G>, targets: G::Bits, dist: u32, up: bool) {
    let mut push = |to: u32| {
        let from = if up {
            to.wrapping_sub(dist)
        } else {
            to.wrapping_add(dist)
        };
        sink.push(MoveOf {
            from: SquareOf::from_index_unchecked(from),
            to: SquareOf::from_index_unchecked(to),
        });
    };
    let mut t = targets;
    while !t.is_zero() {
        push(t.trailing_zeros());
        t = t.clear_lowest();
    }
}

/// Pushes a move from `from` to every square of `targets`.
#[inline(always)]
fn push_all<G: Geometry>(sink: &mut Sink<'_, G>, from: SquareOf<G>, targets: BitboardOf<G>) {
    let mut t = targets.0;
    while !t.is_zero() {
        let to = SquareOf::from_index_unchecked(t.trailing_zeros());
        t = t.clear_lowest();
        sink.push(MoveOf { from, to });
    }
}

/// Every move of `role` under `rules` (repetition not considered).
pub fn legal_moves<G: Geometry>(board: &BoardOf<G>, role: Role, rules: &RuleSet) -> MoveListOf<G> {
    let mut list = MoveListOf::new();
    generate_under(board, role, rules, &mut list);
    list
}

/// True when `role` has at least one move under `rules` (repetition not considered).
#[inline(always)]
pub fn has_move_under<G: Geometry>(board: &BoardOf<G>, role: Role, rules: &RuleSet) -> bool {
    let empty = board.empty();
    let soldiers = board.soldiers(role);
    let restricted = rules.restricted::<G>();
    // Fast path: a soldier next to an empty ordinary square can step there.
    if !rules.has_walls() && (soldiers.neighbours() & empty & !restricted).any() {
        return true;
    }
    if role == Role::Defender && king_targets(board, rules).any() {
        return true;
    }
    // Otherwise a soldier can only move by passing over the empty throne.
    soldier_moves(board, role, rules).1 > 0
}

/// The empty squares `role`'s soldiers on `board` can reach in one move under `rules`
/// (their speed limit included), and the number of such moves.
#[inline(always)]
pub(crate) fn soldier_moves<G: Geometry>(
    board: &BoardOf<G>,
    role: Role,
    rules: &RuleSet,
) -> (BitboardOf<G>, u32) {
    let (soldiers, empty) = (board.soldiers(role), board.empty());
    let restricted = rules.restricted::<G>();
    if rules.slides_freely() {
        return soldier_reach_under(soldiers, empty, restricted);
    }
    let reach = |group: BitboardOf<G>, empty: BitboardOf<G>| match rules.speed.soldier(role) {
        None => soldier_reach_under(group, empty, restricted),
        Some(limit) => reach_at_most(group, empty, !restricted, limit),
    };
    if !rules.has_walls() {
        return reach(soldiers, empty);
    }
    let inside = fort_soldiers(board, role, rules);
    let (a, m) = reach(inside, empty & !rules.walls_of::<G>(true));
    let (b, n) = reach(soldiers & !inside, empty & !rules.walls_of::<G>(false));
    (a | b, m + n)
}

/// [`soldier_reach`] with the squares no soldier may stop on given.
#[inline(always)]
pub(crate) fn soldier_reach_under<G: Geometry>(
    soldiers: BitboardOf<G>,
    empty: BitboardOf<G>,
    restricted: BitboardOf<G>,
) -> (BitboardOf<G>, u32) {
    let g = soldiers.0;
    let e = empty.0;
    let land = e & !restricted.0;
    let size = u32::from(G::SIZE);
    // Soldiers and empty squares lie on the board, so a shift past it finds nothing.
    let n = occluded_fill_up::<G>(g, e, size) & land;
    let s = occluded_fill_down::<G>(g, e, size) & land;
    let east = occluded_fill_up::<G>(g, e & !G::FILE_FIRST, 1) & land;
    let w = occluded_fill_down::<G>(g, e & !G::FILE_LAST, 1) & land;
    let count = n.count_ones() + s.count_ones() + east.count_ones() + w.count_ones();
    (BitboardOf(n | s | east | w), count)
}

/// The number of moves of `role` under `rules`, as [`legal_moves`] would list them,
/// computed without listing them (perft's bulk count).
#[inline]
pub fn count_moves<G: Geometry>(board: &BoardOf<G>, role: Role, rules: &RuleSet) -> u64 {
    let mut n = soldier_moves(board, role, rules).1;
    if role == Role::Defender {
        n += king_targets(board, rules).count();
    }
    u64::from(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::board::Board;
    use crate::core::square::Square;

    #[test]
    fn start_has_116_attacker_moves() {
        let b = Board::start();
        let rules = RuleSet::COPENHAGEN;
        assert_eq!(legal_moves(&b, Role::Attacker, &rules).len(), 116);
        assert_eq!(count_moves(&b, Role::Attacker, &rules), 116);
        assert_eq!(
            count_moves(&b, Role::Defender, &rules),
            legal_moves(&b, Role::Defender, &rules).len() as u64
        );
    }

    #[test]
    fn between_squares() {
        let a1 = Square::new(0).unwrap();
        let a5 = Square::new(44).unwrap();
        assert_eq!(between(a1, a5).count(), 3);
        assert_eq!(between(a5, a1).count(), 3);
        assert_eq!(between(a1, Square::THRONE).count(), 0);
    }
}
