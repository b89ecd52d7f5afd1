//! The static evaluation: what a Copenhagen position is worth to the side to move.
//!
//! Terms (computed from the defenders' point of view, then signed for the mover):
//! - material: defender soldiers are worth more than attackers;
//! - the king's routes to the corners: corners he can reach in two moves, squares from
//!   which he would see two corners at once (a fork), his mobility and his distance to
//!   the nearest corner;
//! - attackers next to the king, and whether the king's region still touches the edge
//!   (the attackers' progress toward encirclement);
//! - attackers guarding the corners (the diagonal blocks), and attackers on the squares
//!   next to a corner, where a single defender captures them;
//! - pieces that the opponent can capture with one move (hanging), weighted by who moves;
//! - mobility of both sides.

use crate::core::bitboard::Bitboard;
use crate::core::board::Board;
use crate::core::movegen::{self, slides};
use crate::core::position::Position;
use crate::core::role::Role;
use crate::core::square::Square;

/// The weights of the evaluation, in centi-units (defenders' point of view).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// An attacker.
    pub attacker: i32,
    /// A defender soldier.
    pub defender: i32,
    /// Each corner the king can reach in two moves.
    pub corner_route: i32,
    /// Defenders to move and the king can reach a square that sees two corners.
    pub fork: i32,
    /// Each square the king can move to.
    pub king_mobility: i32,
    /// Each step of Manhattan distance from the king to the nearest corner.
    pub king_distance: i32,
    /// Each attacker or hostile square next to the king.
    pub king_pressure: i32,
    /// The king's region (through squares without attackers) no longer reaches the edge.
    pub king_enclosed: i32,
    /// Each square of the region reachable from the defenders without crossing attackers.
    pub defender_space: i32,
    /// Each square with a free line to a corner (where the king would threaten to
    /// escape).
    pub corner_open: i32,
    /// Each attacker on a corner-guard square.
    pub corner_guard: i32,
    /// Each attacker next to a corner.
    pub corner_neighbour: i32,
    /// Share (per 16) of a piece's value lost when it hangs and its side is not to move.
    pub hanging_waiting: i32,
    /// Share (per 16) of a piece's value lost when it hangs and its side is to move.
    pub hanging_moving: i32,
    /// Each move of the defenders minus each move of the attackers.
    pub mobility: i32,
    /// Bonus for the side to move.
    pub tempo: i32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            attacker: 55,
            defender: 100,
            corner_route: 25,
            fork: 400,
            king_mobility: 3,
            king_distance: 6,
            king_pressure: 20,
            king_enclosed: 120,
            defender_space: 3,
            corner_open: 0,
            corner_guard: 30,
            corner_neighbour: 20,
            hanging_waiting: 8,
            hanging_moving: 2,
            mobility: 1,
            tempo: 10,
        }
    }
}

/// A `NAME=VALUE` that does not set a [`Weights`] field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WeightError {
    /// Not of the form `NAME=VALUE`.
    #[error("expected NAME=VALUE, got {0:?}")]
    Syntax(String),
    /// No weight of that name.
    #[error("unknown weight {0:?} (expected one of {names})", names = weight_names())]
    UnknownName(String),
    /// The value is not an integer from -10000 to 10000.
    #[error("weight value {0:?} is not an integer from -10000 to 10000")]
    BadValue(String),
}

/// Each weight's name (its field name) and the field: the one list that
/// [`Weights::set`] and [`Weights::NAMES`] read.
type Field = fn(&mut Weights) -> &mut i32;
const FIELDS: [(&str, Field); 16] = [
    ("attacker", |w| &mut w.attacker),
    ("defender", |w| &mut w.defender),
    ("corner_route", |w| &mut w.corner_route),
    ("fork", |w| &mut w.fork),
    ("king_mobility", |w| &mut w.king_mobility),
    ("king_distance", |w| &mut w.king_distance),
    ("king_pressure", |w| &mut w.king_pressure),
    ("king_enclosed", |w| &mut w.king_enclosed),
    ("defender_space", |w| &mut w.defender_space),
    ("corner_open", |w| &mut w.corner_open),
    ("corner_guard", |w| &mut w.corner_guard),
    ("corner_neighbour", |w| &mut w.corner_neighbour),
    ("hanging_waiting", |w| &mut w.hanging_waiting),
    ("hanging_moving", |w| &mut w.hanging_moving),
    ("mobility", |w| &mut w.mobility),
    ("tempo", |w| &mut w.tempo),
];

fn weight_names() -> String {
    Weights::NAMES.join(", ")
}

impl Weights {
    /// The names of the weights, as [`Weights::set`] takes them (the field names).
    pub const NAMES: [&'static str; FIELDS.len()] = {
        let mut names = [""; FIELDS.len()];
        let mut i = 0;
        while i < FIELDS.len() {
            names[i] = FIELDS[i].0;
            i += 1;
        }
        names
    };

    /// Sets one weight from `NAME=VALUE` (for tuning by self-play:
    /// `hnefi --weight corner_guard=40`). On an error nothing changes.
    ///
    /// ```
    /// use hnefi::search::eval::Weights;
    ///
    /// let mut w = Weights::default();
    /// w.set("tempo=-5").unwrap();
    /// assert_eq!(w.tempo, -5);
    /// assert!(w.set("tempo").is_err());
    /// assert!(w.set("speed=1").is_err());
    /// assert!(w.set("tempo=1e9").is_err());
    /// assert_eq!(w.tempo, -5);
    /// ```
    pub fn set(&mut self, assignment: &str) -> Result<(), WeightError> {
        let (name, value) = assignment
            .split_once('=')
            .ok_or_else(|| WeightError::Syntax(assignment.to_string()))?;
        let v: i32 = value
            .trim()
            .parse()
            .ok()
            .filter(|v: &i32| (-10_000..=10_000).contains(v))
            .ok_or_else(|| WeightError::BadValue(value.to_string()))?;
        let (_, field) = FIELDS
            .iter()
            .find(|(n, _)| *n == name.trim())
            .ok_or_else(|| WeightError::UnknownName(name.to_string()))?;
        *field(self) = v;
        Ok(())
    }
}

/// Corner-guard squares: the three squares on the diagonal near each corner (b3, c2, b2
/// for a1, and their mirrors).
const fn guard_squares() -> Bitboard {
    let mut m = 0u128;
    let pts = [(1u8, 2u8), (2, 1), (1, 1)];
    let mut sym = 0;
    while sym < 4 {
        let mut i = 0;
        while i < 3 {
            let (mut f, mut r) = pts[i];
            if sym & 1 != 0 {
                f = 10 - f;
            }
            if sym & 2 != 0 {
                r = 10 - r;
            }
            m |= 1u128 << (r as u32 * 11 + f as u32);
            i += 1;
        }
        sym += 1;
    }
    Bitboard(m)
}

/// The corner guards.
pub const GUARDS: Bitboard = guard_squares();

/// The eight squares next to the corners.
pub const CORNER_NEIGHBOURS: Bitboard = Bitboard(
    (1u128 << 1)
        | (1u128 << 11)
        | (1u128 << 9)
        | (1u128 << 21)
        | (1u128 << 99)
        | (1u128 << 111)
        | (1u128 << 109)
        | (1u128 << 119),
);

/// The squares the pieces can slide to in one move (through `empty`, not stopping on
/// restricted squares) and the number of such moves.
#[inline]
fn reach(pieces: Bitboard, empty: Bitboard) -> (Bitboard, u32) {
    movegen::soldier_reach(pieces, empty)
}

/// The soldiers of `victims` that a piece of the other side could capture custodially by
/// landing on a square of `landable`, against squares of `hostile`.
#[inline]
fn hanging(victims: Bitboard, hostile: Bitboard, landable: Bitboard) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    // Landing on t = v - d with the hostile square at v + d, for the four directions d.
    out |= victims & hostile.south() & landable.north();
    out |= victims & hostile.north() & landable.south();
    out |= victims & hostile.west() & landable.east();
    out |= victims & hostile.east() & landable.west();
    out
}

/// The squares with a free line to a corner (the king standing there could escape next
/// move), one set per corner. `occ` must not contain the king.
#[inline]
pub fn corner_lines(occ: Bitboard) -> [Bitboard; 4] {
    Square::CORNERS.map(|c| slides(c, occ))
}

/// The number of corners the king sees along a free line.
#[inline]
pub fn escape_lines(board: &Board) -> u32 {
    let king = board.king();
    if !king.is_edge() {
        return 0;
    }
    let occ = board.occupied() ^ board.king_bb();
    corner_lines(occ)
        .iter()
        .filter(|l| l.contains(king))
        .count() as u32
}

/// The squares on the king's free lines to corners (the squares an attacker must occupy
/// to block), or empty when he sees none.
#[inline]
pub fn escape_blocks(board: &Board) -> Bitboard {
    let king = board.king();
    if !king.is_edge() {
        return Bitboard::EMPTY;
    }
    let occ = board.occupied() ^ board.king_bb();
    let mut out = Bitboard::EMPTY;
    for (c, l) in Square::CORNERS.iter().zip(corner_lines(occ)) {
        if l.contains(king) {
            out |= crate::core::movegen::between(king, *c);
        }
    }
    out
}

/// True when the position is close to one of the quiet wins: the defenders' region
/// (through squares without attackers) touches the edge on at most four squares (an
/// encirclement is near), or the king stands on the edge (a fort or an
/// escape is near). Pruning and reductions stay off in such nodes.
#[inline]
pub fn quiet_win_near(board: &Board) -> bool {
    let king = board.king();
    let (f, r) = (king.file(), king.rank());
    if f == 0 || r == 0 || f == 10 || r == 10 {
        return true;
    }
    let region = board.defenders_and_king().flood(!board.attackers());
    (region & Bitboard::EDGE).count() <= 4
}

/// True when an attacker move can capture the king right now (attackers to move).
#[inline]
pub fn king_capturable(board: &Board) -> bool {
    let king = board.king();
    if king.is_edge() {
        return false;
    }
    let around = board.king_bb().neighbours();
    let closed = around & (board.attackers() | Bitboard::THRONE);
    if closed.count() != 3 {
        return false;
    }
    let Some(gap) = (around & !closed).first() else {
        return false;
    };
    if !board.empty().contains(gap) {
        return false;
    }
    (slides(gap, board.occupied()) & board.attackers()).any()
}

/// The evaluation of `pos` for the side to move, in centi-units.
pub fn evaluate(pos: &Position, w: &Weights) -> i32 {
    let b = pos.board();
    let attackers = b.attackers();
    let defenders = b.defenders();
    let king = b.king();
    let kb = b.king_bb();
    let occ = b.occupied();
    let empty = b.empty();
    let to_move = pos.to_move();

    let mut s = 0i32;
    s += w.defender * defenders.count() as i32 - w.attacker * attackers.count() as i32;

    // The king's routes to the corners.
    let occ_nk = occ ^ kb;
    let lines = corner_lines(occ_nk);
    let kreach = slides(king, occ);
    let mut routes = 0;
    let mut seen_once = Bitboard::EMPTY;
    let mut seen_twice = Bitboard::EMPTY;
    let mut open = 0;
    for l in lines {
        open += l.count() as i32;
        if (kreach & l).any() {
            routes += 1;
        }
        seen_twice |= seen_once & l;
        seen_once |= l;
    }
    s += w.corner_route * routes + w.corner_open * open;
    if to_move == Role::Defender && (kreach & seen_twice).any() {
        s += w.fork;
    }
    s += w.king_mobility * kreach.count() as i32;
    let (kf, kr) = (king.file() as i32, king.rank() as i32);
    let dist = kf.min(10 - kf) + kr.min(10 - kr);
    s -= w.king_distance * dist;

    // Pressure on the king and the attackers' ring.
    let around = kb.neighbours();
    s -= w.king_pressure * (around & (attackers | (Bitboard::THRONE & empty))).count() as i32;
    let not_att = !attackers;
    let king_region = kb.flood(not_att);
    if (king_region & Bitboard::EDGE).is_empty() {
        s -= w.king_enclosed;
    }
    let region = b.defenders_and_king().flood(not_att);
    s += w.defender_space * region.count() as i32;

    // Corners.
    s -= w.corner_guard * (attackers & GUARDS).count() as i32;
    s += w.corner_neighbour * (attackers & CORNER_NEIGHBOURS).count() as i32;

    // Mobility and hanging pieces.
    let (att_reach, att_moves) = reach(attackers, empty);
    let (def_reach, def_moves) = reach(defenders, empty);
    let def_reach = def_reach | (kreach & !Bitboard::RESTRICTED);
    s += w.mobility * (def_moves as i32 + kreach.count() as i32 - att_moves as i32);

    let empty_restricted = Bitboard::RESTRICTED & empty;
    let hang_def = hanging(defenders, attackers | empty_restricted, att_reach).count() as i32;
    let hang_att = hanging(
        attackers,
        b.defenders_and_king() | empty_restricted,
        def_reach,
    )
    .count() as i32;
    let (def_share, att_share) = match to_move {
        Role::Defender => (w.hanging_moving, w.hanging_waiting),
        Role::Attacker => (w.hanging_waiting, w.hanging_moving),
    };
    s -= hang_def.min(3) * w.defender * def_share / 16;
    s += hang_att.min(3) * w.attacker * att_share / 16;

    let s = match to_move {
        Role::Defender => s,
        Role::Attacker => -s,
    };
    s + w.tempo
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::notation::position_from_opentafl;

    #[test]
    fn every_weight_name_sets_its_own_field() {
        let mut seen = Vec::new();
        for name in Weights::NAMES {
            let mut w = Weights::default();
            assert!(w.set(&format!("{name}=7777")).is_ok(), "{name}");
            assert_ne!(w, Weights::default(), "{name}");
            assert!(!seen.contains(&w), "{name} sets a field another name sets");
            seen.push(w);
        }
        let mut w = Weights::default();
        for bad in ["", "=", "tempo", "tempo=", "tempo=10001", "=5", "tempo=5=5"] {
            assert!(w.set(bad).is_err(), "{bad:?}");
        }
        assert_eq!(w, Weights::default());
    }

    #[test]
    fn masks() {
        assert_eq!(GUARDS.count(), 12);
        assert_eq!(CORNER_NEIGHBOURS.count(), 8);
        assert!((CORNER_NEIGHBOURS & Bitboard::EDGE) == CORNER_NEIGHBOURS);
    }

    #[test]
    fn start_is_symmetric_and_small() {
        let pos = Position::start();
        let e = evaluate(&pos, &Weights::default());
        assert!(e.abs() < 1000, "{e}");
        for sym in 0..8 {
            assert_eq!(evaluate(&pos.transform(sym), &Weights::default()), e);
        }
    }

    #[test]
    fn escape_detection() {
        // King on a2 with a free line to a1 and a11.
        let pos = position_from_opentafl("/11/K10/11/11/11/4T6/11/11/11/11/5t5/", Role::Attacker)
            .unwrap();
        assert_eq!(escape_lines(pos.board()), 2);
        assert_eq!(escape_blocks(pos.board()).count(), 8);
    }
}
