//! Captures: custodial captures, shield walls and the capture of the king
//! (docs/RULES.md sections 3 to 5).

use super::bitboard::BitboardOf;
use super::board::BoardOf;
use super::geometry::{Bits, Geometry, TABLE};
use super::king::KingCapture;
use super::movegen::{may_slide, nearest_blockers};
use super::moves::{MoveListOf, MoveOf};
use super::opentafl_wall;
use super::role::Role;
use super::rules::RuleSet;
use super::shield_walls::ShieldWalls;
use super::square::SquareOf;

/// The squares hostile to the soldiers of `victim`, per the table of docs/RULES.md section 3:
/// enemy pieces (the king where he is armed as the far piece, or sits on a throne hostile
/// when occupied), and the empty special squares the rule set makes hostile to them.
#[inline(always)]
pub(crate) fn hostile_to<G: Geometry>(
    board: &BoardOf<G>,
    victim: Role,
    rules: &RuleSet,
) -> BitboardOf<G> {
    let empty_special = rules.hostile_squares::<G>(victim, false) & board.empty();
    match victim {
        Role::Attacker => {
            let king = board.king();
            let king_hostile = rules.king_armed.anvil()
                || (rules.occupied_throne_hostile && rules.throne && king.is_throne());
            let pieces = if king_hostile {
                board.defenders_and_king()
            } else {
                board.defenders()
            };
            pieces | empty_special
        }
        Role::Defender => board.attackers() | empty_special,
    }
}

/// For a non-corner edge square: the index (in [`Direction::ALL`](super::square::Direction::ALL) order) of its front
/// direction, towards the centre, and of the two directions along its edge.
#[inline(always)]
pub(crate) fn edge_info<G: Geometry>(sq: SquareOf<G>) -> Option<(usize, [usize; 2])> {
    G::tables().edge_info[sq.index() & (TABLE - 1)]
        .map(|(f, [a, b])| (f as usize, [a as usize, b as usize]))
}

/// Soldiers captured custodially by the piece of `mover` that has just landed on `to`.
///
/// ```text
///  . X O X .    after an attacker lands on the right-hand X, O is captured
/// ```
#[inline(always)]
pub fn custodial<G: Geometry>(
    board: &BoardOf<G>,
    mover: Role,
    to: SquareOf<G>,
    rules: &RuleSet,
) -> BitboardOf<G> {
    let tables = G::tables();
    let victim = mover.opponent();
    let t = to.index() & (TABLE - 1);
    let targets = tables.neighbours[t] & board.soldiers(victim).0;
    if targets.is_zero() {
        return BitboardOf::EMPTY;
    }
    // The enemy soldiers beside `to` with a square of `far` two steps away on the same
    // line: only a square two steps from `to` lands on a neighbour when shifted one step
    // back towards it.
    let beyond = tables.beyond[t];
    let n = u32::from(G::SIZE);
    let across = |far: G::Bits| {
        let f = far & beyond;
        ((f >> 1) | (f << 1) | (f >> n) | (f << n)) & targets
    };
    // Every hostile square is a piece of the mover's side or a special square: most moves
    // beside an enemy soldier stop here, before the rest of the rule set is read.
    let special = rules.corners.bits::<G>() | G::CORNERS | G::THRONE;
    if across(board.pieces(mover).0 | special).is_zero() {
        return BitboardOf::EMPTY;
    }
    if !rules.king_armed.hammer() && to == board.king() {
        return BitboardOf::EMPTY;
    }
    let mut hostile = hostile_to(board, victim, rules).0;
    if rules.linnaean && mover == Role::Attacker && linnaean_throne(board) {
        hostile |= G::THRONE;
    }
    BitboardOf(across(hostile))
}

/// True when the king stands on the throne and exactly one of its neighbours is not an
/// attacker: a defender there is captured against the occupied throne by an attacker
/// on its far side (Linnaean capture).
fn linnaean_throne<G: Geometry>(board: &BoardOf<G>) -> bool {
    let king = board.king();
    king.is_throne()
        && (BitboardOf::<G>(G::tables().neighbours[king.index() & (TABLE - 1)])
            & !board.attackers())
        .count()
            == 1
}

/// The squares on which a piece of `mover` landing on `board` captures custodially
/// ([`custodial`] is not empty there, Linnaean captures aside): next to an enemy soldier
/// that has a square hostile to it on the far side.
#[inline]
pub fn custodial_squares<G: Geometry>(
    board: &BoardOf<G>,
    mover: Role,
    rules: &RuleSet,
) -> BitboardOf<G> {
    let victims = board.soldiers(mover.opponent());
    let hostile = hostile_to(board, mover.opponent(), rules);
    (victims & hostile.south()).south()
        | (victims & hostile.north()).north()
        | (victims & hostile.west()).west()
        | (victims & hostile.east()).east()
}

/// Appends to `list` every move of `role` that captures at least one soldier
/// custodially ([`custodial`]), found from the victims rather than from all moves: the
/// landing squares next to an enemy soldier with a hostile square behind it, and the
/// pieces that slide there. The king's moves onto the throne or a corner are left out
/// (a corner wins outright; the search's quiescence wants captures, not the rare king
/// return to the throne that also captures).
pub fn capture_moves<G: Geometry>(
    board: &BoardOf<G>,
    role: Role,
    rules: &RuleSet,
    list: &mut MoveListOf<G>,
) {
    let land = board.empty() & !rules.restricted::<G>();
    let targets = custodial_squares(board, role, rules) & land;
    let movers = board.pieces(role);
    let occ = board.occupied();
    for to in targets {
        for from in nearest_blockers(to, occ) & movers {
            if may_slide(board, role, from, to, rules) {
                list.push(MoveOf { from, to });
            }
        }
    }
}

/// Soldiers captured by shield walls closed by the piece of `mover` that has just landed
/// on `to` (docs/RULES.md section 4). The king is never captured, even inside a row.
///
/// ```text
///  2  . . . . . . . . X X .     before the attackers play f1-h1: row i1 (king), j1,
///  1  . . . . . X . . K O .     brackets h1 and corner k1, fronts i2, j2.
///     a b c d e f g h i j k     j1 is captured, the king stays.
/// ```
#[inline]
pub fn shield_wall<G: Geometry>(
    board: &BoardOf<G>,
    mover: Role,
    to: SquareOf<G>,
    rules: &RuleSet,
) -> BitboardOf<G> {
    let tables = G::tables();
    let bit = &tables.square_bits;
    let t = to.index() & (TABLE - 1);
    let Some((front, dirs)) = tables.edge_info[t] else {
        return BitboardOf::EMPTY;
    };
    let enemy = board.pieces(mover.opponent()).0;
    if (tables.neighbours[t] & enemy).is_zero() {
        return BitboardOf::EMPTY;
    }
    let own = board.pieces(mover).0;
    let front = &tables.step[usize::from(front) & 3];
    let mut captured = G::Bits::ZERO;
    for d in dirs {
        let step = &tables.step[usize::from(d) & 3];
        let mut row = G::Bits::ZERO;
        let mut fronted = true;
        let mut q = step[t] as usize;
        while !(bit[q] & enemy).is_zero() {
            row |= bit[q];
            fronted &= !(bit[front[q] as usize] & own).is_zero();
            q = step[q] as usize;
        }
        // q is on the board: at worst it is the corner.
        let closed = !(bit[q] & (own | rules.restricted::<G>().0 & G::CORNERS)).is_zero();
        if fronted && closed && row.count_ones() >= 2 {
            captured |= row & board.soldiers(mover.opponent()).0;
        }
    }
    BitboardOf(captured)
}

/// All soldiers captured by a move of `mover` that has landed on `to`: custodial and (where
/// the rules have them) shield-wall captures found on the same board, to be removed
/// together.
#[inline(always)]
pub(crate) fn captures<G: Geometry>(
    board: &BoardOf<G>,
    mover: Role,
    to: SquareOf<G>,
    rules: &RuleSet,
) -> BitboardOf<G> {
    let c = custodial(board, mover, to, rules);
    match rules.shield_walls {
        ShieldWalls::Copenhagen if to.is_edge() => c | shield_wall(board, mover, to, rules),
        ShieldWalls::Copenhagen | ShieldWalls::Off => c,
        ShieldWalls::OpenTafl => {
            // OpenTafl looks for walls once the custodial captures, the king's included, are
            // off the board.
            let king_taken = mover == Role::Attacker && king_captured(board, to, rules);
            let corners = if rules.corners.any() {
                BitboardOf::CORNERS
            } else {
                BitboardOf::EMPTY
            };
            c | opentafl_wall::captures(board, c, king_taken, mover, corners)
        }
    }
}

/// True when an attacker move that landed on `to` captures the king under `rules`
/// (docs/RULES.md section 5, and [`KingCapture`] for the other modes). In every mode the
/// arriving attacker is next to him.
#[inline(always)]
pub fn king_captured<G: Geometry>(board: &BoardOf<G>, to: SquareOf<G>, rules: &RuleSet) -> bool {
    let king = board.king();
    let around = BitboardOf::<G>(G::tables().neighbours[king.index() & (TABLE - 1)]);
    // Most moves land away from the king: only those next to him go on.
    around.contains(to) && king_surrounded(board, king, around, to, rules)
}

/// [`king_captured`] for an attacker that landed on `to`, next to the king on `king`
/// whose neighbours are `around`.
#[inline(never)]
fn king_surrounded<G: Geometry>(
    board: &BoardOf<G>,
    king: SquareOf<G>,
    around: BitboardOf<G>,
    to: SquareOf<G>,
    rules: &RuleSet,
) -> bool {
    let attackers = board.attackers();
    // The empty special squares that count against him (the throne is empty when he is
    // beside it).
    let hostile = attackers | (rules.hostile_squares::<G>(Role::Defender, true) & board.empty());
    let on_throne = rules.throne && king.is_throne();
    match rules.king_capture {
        KingCapture::Strong => !king.is_edge() && (around & !hostile).is_empty(),
        KingCapture::Middleweight => (around & !hostile).is_empty(),
        KingCapture::Weak => weak_king_captured(king, to, hostile),
        KingCapture::StrongOnThrone if on_throne => (around & !attackers).is_empty(),
        KingCapture::StrongOnThrone => weak_king_captured(king, to, hostile),
        KingCapture::StrongNearThrone if on_throne => (around & !attackers).is_empty(),
        // Beside the throne, which counts where it is hostile to him.
        KingCapture::StrongNearThrone if rules.throne && around.contains(SquareOf::THRONE) => {
            (around & !hostile).is_empty()
        }
        KingCapture::StrongNearThrone => weak_king_captured(king, to, hostile),
    }
}

/// True when the square beyond the king, on the line from `to` through him, is in
/// `hostile` (off the board it is not).
#[inline]
fn weak_king_captured<G: Geometry>(
    king: SquareOf<G>,
    to: SquareOf<G>,
    hostile: BitboardOf<G>,
) -> bool {
    let tables = G::tables();
    let (k, t) = (king.index() & (TABLE - 1), to.index() & (TABLE - 1));
    tables.step.iter().any(|step| {
        usize::from(step[t]) == k
            && !(tables.square_bits[usize::from(step[k]) & (TABLE - 1)] & hostile.0).is_zero()
    })
}
