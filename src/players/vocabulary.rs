//! The notions the strategies of the Fetlar study share (the design document's section 3.2
//! and the predicates of its Algorithms 2 to 10): a turn and what a move does, "can the
//! king be captured" and "can the king reach an exit", whether a piece can be taken back at
//! once, "move closest to", the exit castles and their barricades, the magic quadrant's
//! key squares, the royal guard's 5x5 box and the cordon.
//!
//! Everything that depends on the rules asks the core: a move is tried with
//! [`Position::make_move`] under the game's rule set (its captures) and judged by the
//! core's [`outcome`], so the same notions hold under whichever rule set the game is
//! played. "The king can be captured" is read as "the attackers have a move that wins
//! at once" and "the king can reach an exit castle" as "the defenders have a move that
//! wins at once": under the Fetlar rules these are exactly the king's capture and escape;
//! under Copenhagen they also take in encirclement and the edge fort.
//!
//! Distances are Manhattan distances between squares (the pieces move along ranks and
//! files); where several moves are equally good, the player's seeded generator chooses.

use crate::core::bitboard::Bitboard;
use crate::core::board::Board;
use crate::core::game::Game;
use crate::core::geometry::{Geometry, S11};
use crate::core::judge::outcome;
use crate::core::movegen;
use crate::core::moves::Move;
use crate::core::outcome::Outcome;
use crate::core::position::Position;
use crate::core::repetition::Verdict;
use crate::core::rng::SplitMix64;
use crate::core::role::Role;
use crate::core::rules::RuleSet;
use crate::core::square::Square;

/// The strategies' board: the study's rules are played on 11x11 only.
const SIZE: u8 = S11::SIZE;

/// The last file or rank index (10 on the 11x11 board).
const LAST: u8 = SIZE - 1;

/// What one move does to a position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tried {
    /// The position after the move and its captures (the other side to move).
    pub(crate) after: Position,
    /// The soldiers it captured.
    pub(crate) captured: Bitboard,
    /// The win the move decides by itself, as the game's referee judges it.
    pub(crate) win: Option<Outcome>,
}

/// Plays `mv` on a copy of `pos` and asks the core's judge ([`outcome`]) what it decided
/// by itself (the repetition rule and the move limit left aside).
pub(crate) fn try_move(pos: &Position, rules: &RuleSet, mv: Move) -> Tried {
    let mut after = *pos;
    let captured = after.make_move(mv, rules);
    let win = outcome(rules, &after, mv.to, Verdict::Allowed, false, || true)
        .outcome()
        .filter(|o| o.winner.is_some());
    Tried {
        after,
        captured,
        win,
    }
}

/// True when the side to move in `pos` has a move (repetition left aside) that wins the
/// game at once.
pub(crate) fn wins_at_once(pos: &Position, rules: &RuleSet) -> bool {
    let me = pos.to_move();
    pos.legal_moves(rules).iter().any(|&mv| {
        try_move(pos, rules, mv)
            .win
            .is_some_and(|w| w.winner == Some(me))
    })
}

/// True when `role` could win at once on `board` if it were its turn: for the attackers,
/// "can the king be captured"; for the defenders, "can the king reach an exit castle".
pub(crate) fn could_win_at_once(board: &Board, role: Role, rules: &RuleSet) -> bool {
    wins_at_once(&Position::new(*board, role), rules)
}

/// The soldiers of the side that just moved (not to move in `pos`) that the side to move
/// could capture with one move under `rules`.
pub(crate) fn capturable(pos: &Position, rules: &RuleSet) -> Bitboard {
    let mut hit = Bitboard::EMPTY;
    for &mv in pos.legal_moves(rules).iter() {
        let mut p = *pos;
        hit |= p.make_move(mv, rules);
    }
    hit
}

/// The Manhattan distance between two squares.
pub fn distance(a: Square, b: Square) -> u8 {
    a.file().abs_diff(b.file()) + a.rank().abs_diff(b.rank())
}

/// The larger of the file and rank distances (the size of the box around `a` that holds
/// `b`).
pub(crate) fn box_distance(a: Square, b: Square) -> u8 {
    a.file().abs_diff(b.file()).max(a.rank().abs_diff(b.rank()))
}

/// A random member of `moves`.
pub(crate) fn pick(rng: &mut SplitMix64, moves: &[Move]) -> Option<Move> {
    moves.get(rng.below(moves.len())).copied()
}

/// A random move of those that satisfy `good`, or of all of them when none does.
pub(crate) fn pick_preferring(
    rng: &mut SplitMix64,
    moves: &[Move],
    good: impl Fn(Move) -> bool,
) -> Option<Move> {
    let preferred: Vec<Move> = moves.iter().copied().filter(|&m| good(m)).collect();
    pick(rng, &preferred).or_else(|| pick(rng, moves))
}

/// The moves with the smallest `key`, in their order.
pub(crate) fn lowest_by<K: Ord>(moves: &[Move], key: impl Fn(Move) -> K) -> Vec<Move> {
    let Some(best) = moves.iter().map(|&m| key(m)).min() else {
        return Vec::new();
    };
    moves.iter().copied().filter(|&m| key(m) == best).collect()
}

/// The random move of the study's Random player: a random piece among those that can
/// move, then a random move of that piece.
pub(crate) fn random_move(rng: &mut SplitMix64, moves: &[Move]) -> Option<Move> {
    let mut pieces: Vec<Square> = moves.iter().map(|m| m.from).collect();
    pieces.sort_unstable();
    pieces.dedup();
    let from = *pieces.get(rng.below(pieces.len()))?;
    let own: Vec<Move> = moves.iter().copied().filter(|m| m.from == from).collect();
    pick(rng, &own)
}

/// The moves ordered by how close they bring their piece to `target`, nearest first;
/// equally near moves in a random order ("move closest to").
pub(crate) fn closest_first(rng: &mut SplitMix64, moves: &[Move], target: Square) -> Vec<Move> {
    let mut order = moves.to_vec();
    rng.shuffle(&mut order);
    order.sort_by_key(|m| distance(m.to, target));
    order
}

/// One decision: the game, its current position and rules, and the legal moves of the
/// side to move (the repetition rule included), the only moves a player may choose.
#[derive(Debug)]
pub(crate) struct Turn<'a> {
    /// The game.
    pub(crate) game: &'a Game,
    /// Its current position.
    pub(crate) pos: Position,
    /// Its rules.
    pub(crate) rules: RuleSet,
    /// The legal moves, in the game's order.
    pub(crate) moves: Vec<Move>,
}

impl<'a> Turn<'a> {
    /// The turn of the side to move in `game`.
    pub(crate) fn new(game: &'a Game) -> Turn<'a> {
        Turn {
            game,
            pos: *game.position(),
            rules: game.rules(),
            moves: game.legal_moves().iter().copied().collect(),
        }
    }

    /// The side to move.
    pub(crate) fn me(&self) -> Role {
        self.pos.to_move()
    }

    /// The board.
    pub(crate) fn board(&self) -> &Board {
        self.pos.board()
    }

    /// The king's square.
    pub(crate) fn king(&self) -> Square {
        self.pos.board().king()
    }

    /// What `mv` does.
    pub(crate) fn try_move(&self, mv: Move) -> Tried {
        try_move(&self.pos, &self.rules, mv)
    }

    /// `mv` if it is legal now.
    pub(crate) fn legal(&self, mv: Move) -> Option<Move> {
        self.moves.contains(&mv).then_some(mv)
    }

    /// True at the attackers' first move of a game from the start position (where the
    /// study's attackers play their opening).
    pub(crate) fn is_first_move(&self) -> bool {
        self.game.moves_played() == 0 && *self.game.first_position() == Position::start()
    }

    /// True once the king has left the throne at some point of the game.
    pub(crate) fn king_has_left_throne(&self) -> bool {
        self.game
            .positions()
            .iter()
            .any(|p| !p.board().king().is_throne())
    }

    /// The moves that win at once (for the attackers "capture the king", for the
    /// defenders "move the king to an exit castle").
    pub(crate) fn winning_moves(&self) -> Vec<Move> {
        let me = self.me();
        self.filter(|t, mv| t.try_move(mv).win.is_some_and(|w| w.winner == Some(me)))
    }

    /// The moves that capture at least one soldier, with how many.
    pub(crate) fn capturing_moves(&self) -> Vec<(Move, u32)> {
        self.moves
            .iter()
            .map(|&mv| (mv, self.try_move(mv).captured.count()))
            .filter(|&(_, n)| n > 0)
            .collect()
    }

    /// The capturing moves that take the most soldiers.
    pub(crate) fn best_captures(&self) -> Vec<Move> {
        let captures = self.capturing_moves();
        let most = captures.iter().map(|&(_, n)| n).max().unwrap_or(0);
        captures
            .into_iter()
            .filter(|&(_, n)| n == most)
            .map(|(mv, _)| mv)
            .collect()
    }

    /// The legal moves for which `keep` holds.
    pub(crate) fn filter(&self, keep: impl Fn(&Self, Move) -> bool) -> Vec<Move> {
        self.moves
            .iter()
            .copied()
            .filter(|&mv| keep(self, mv))
            .collect()
    }

    /// The king's legal moves.
    pub(crate) fn king_moves(&self) -> Vec<Move> {
        let king = self.king();
        self.filter(|_, mv| mv.from == king)
    }

    /// True unless the moved piece can be captured at once: a soldier is not among the
    /// pieces the opponent could take with its reply, the king cannot be captured by the
    /// reply ("canMoveBeCaptured" negated). A move that wins is safe.
    pub(crate) fn is_safe(&self, mv: Move) -> bool {
        let t = self.try_move(mv);
        if t.win.is_some_and(|w| w.winner == Some(self.me())) {
            return true;
        }
        if mv.from == self.king() {
            !wins_at_once(&t.after, &self.rules)
        } else {
            !capturable(&t.after, &self.rules).contains(mv.to)
        }
    }

    /// True when after `mv` the opponent can neither capture any soldier of ours nor win
    /// at once.
    pub(crate) fn leaves_nothing_capturable(&self, mv: Move) -> bool {
        let t = self.try_move(mv);
        capturable(&t.after, &self.rules).is_empty() && !wins_at_once(&t.after, &self.rules)
    }

    /// The opponent's threat to win at once, if it were to move now: for the defenders
    /// "canCaptureKing(opponent)", for the attackers "canKingReachExit(opponent)".
    pub(crate) fn opponent_threatens_win(&self) -> bool {
        could_win_at_once(self.board(), self.me().opponent(), &self.rules)
    }

    /// The moves after which the opponent has no move that wins at once ("block capture
    /// of king", "block king from reaching exit"), safe ones preferred; `None` when
    /// nothing blocks.
    pub(crate) fn block_win_threat(&self, rng: &mut SplitMix64) -> Option<Move> {
        let blocks = self.filter(|t, mv| !wins_at_once(&t.try_move(mv).after, &t.rules));
        pick_preferring(rng, &blocks, |mv| self.is_safe(mv))
    }

    /// The king's move that brings him strictly closer to the nearest exit castle that is
    /// not barricaded, nearest first, never a move after which he can be captured;
    /// ties broken by `tie` (higher first), then at random. `None` when every exit castle
    /// is barricaded or no king move comes closer ("move king as close to an unbarricaded
    /// exit castle as possible").
    pub(crate) fn king_towards_open_exit(
        &self,
        rng: &mut SplitMix64,
        tie: impl Fn(Move) -> u32,
    ) -> Option<Move> {
        let exits: Vec<Square> = Square::CORNERS
            .into_iter()
            .filter(|&c| !is_barricaded(self.board(), c))
            .collect();
        let to_exit = |sq: Square| exits.iter().map(|&c| distance(sq, c)).min();
        let now = to_exit(self.king())?;
        let king = self.king();
        let closer = self.filter(|t, mv| {
            mv.from == king
                && to_exit(mv.to).is_some_and(|d| d < now)
                && !wins_at_once(&t.try_move(mv).after, &t.rules)
        });
        let mut order = closer;
        rng.shuffle(&mut order);
        order.sort_by_key(|&mv| (to_exit(mv.to), std::cmp::Reverse(tie(mv))));
        order.first().copied()
    }
}

/// A square near a corner: `dx` files and `dy` ranks in from `corner`.
pub(crate) fn near_corner(corner: Square, dx: u8, dy: u8) -> Option<Square> {
    Square::from_coords(corner.file().abs_diff(dx), corner.rank().abs_diff(dy))
}

/// Squares near a corner as a set (those on the board).
fn near_corner_set(corner: Square, offsets: &[(u8, u8)]) -> Bitboard {
    let mut set = Bitboard::EMPTY;
    for &(dx, dy) in offsets {
        if let Some(sq) = near_corner(corner, dx, dy) {
            set.insert(sq);
        }
    }
    set
}

/// The middle square of a corner's primary barricade (b2 for a1): diagonally between the
/// magic quadrant's two key edge squares.
pub(crate) fn barricade_middle(corner: Square) -> Bitboard {
    near_corner_set(corner, &[(1, 1)])
}

/// The two edge squares of a corner's primary barricade (a3 and c1 for a1): where the
/// magic quadrant's third lines meet the edge, the "key edge positions".
pub(crate) fn barricade_border(corner: Square) -> Bitboard {
    near_corner_set(corner, &[(0, 2), (2, 0)])
}

/// The squares of a corner's secondary barricade (a2, a3, b1, c1 for a1), built when the
/// middle square cannot be held.
pub(crate) fn secondary_barricade(corner: Square) -> Bitboard {
    near_corner_set(corner, &[(0, 1), (0, 2), (1, 0), (2, 0)])
}

/// Every square of either barricade of a corner.
pub(crate) fn barricade_squares(corner: Square) -> Bitboard {
    barricade_middle(corner) | barricade_border(corner) | secondary_barricade(corner)
}

/// True when the attackers hold a corner's primary barricade (its middle and border
/// squares) or its secondary one: the exit castle is closed to the king.
pub(crate) fn is_barricaded(board: &Board, corner: Square) -> bool {
    let primary = barricade_middle(corner) | barricade_border(corner);
    let held = |set: Bitboard| (set & !board.attackers()).is_empty();
    held(primary) || held(secondary_barricade(corner))
}

/// The 5x5 box centred on a square (the royal guard's ground around the king).
pub(crate) fn guard_box(center: Square) -> Bitboard {
    let mut set = Bitboard::EMPTY;
    for sq in Square::all() {
        if box_distance(center, sq) <= 2 {
            set.insert(sq);
        }
    }
    set
}

/// The defenders (the king left out) in the 5x5 box around `king` on `board`.
pub fn guards(board: &Board, king: Square) -> u32 {
    (board.defenders() & guard_box(king)).count()
}

/// The centre of the board: the 5x5 box around the throne.
pub(crate) fn centre() -> Bitboard {
    guard_box(Square::THRONE)
}

/// The longest move the king has on `board` (0 when he cannot move).
pub(crate) fn king_reach(board: &Board) -> u8 {
    let king = board.king();
    movegen::slides(king, board.occupied())
        .iter()
        .map(|sq| distance(king, sq))
        .max()
        .unwrap_or(0)
}

/// A side of the board, for the cordon: the edge it runs along.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Rank 11.
    North,
    /// File k.
    East,
    /// Rank 1.
    South,
    /// File a.
    West,
}

impl Side {
    /// In the order the study's cordon builder tries them.
    pub(crate) const ALL: [Side; 4] = [Side::North, Side::East, Side::South, Side::West];

    /// The square `across` along the side and `depth` lines in from its edge (depth 0 is
    /// the edge itself).
    pub(crate) fn square(self, across: u8, depth: u8) -> Option<Square> {
        let inward = LAST.checked_sub(depth)?;
        match self {
            Side::North => Square::from_coords(across, inward),
            Side::South => Square::from_coords(across, depth),
            Side::East => Square::from_coords(inward, across),
            Side::West => Square::from_coords(depth, across),
        }
    }

    /// The line `depth` lines in from the edge.
    pub(crate) fn line(self, depth: u8) -> Bitboard {
        let mut set = Bitboard::EMPTY;
        for across in 0..SIZE {
            if let Some(sq) = self.square(across, depth) {
                set.insert(sq);
            }
        }
        set
    }
}

/// A cordon along one side: for each line across the board (file for north and south,
/// rank for east and west) the depth of the attacker that closes it. Neighbouring depths
/// differ by at most one, so no piece moving along ranks and files can pass it, and no
/// defender or king stands between it and the edge (the study's condition for a cordon
/// that works).
pub(crate) type Cordon = [u8; SIZE as usize];

/// The cordon along `side` that lies furthest in from the edge, if the attackers have one.
pub fn cordon(board: &Board, side: Side) -> Option<Cordon> {
    const N: usize = SIZE as usize;
    // reach[i][d]: the deepest total depth of a valid cordon over lines 0..=i that puts
    // line i's attacker at depth d; from[i][d] the depth chosen on line i - 1.
    let mut reach = [[None::<u32>; N]; N];
    let mut from = [[0u8; N]; N];
    let defenders = board.defenders_and_king();
    for (i, across) in (0..SIZE).enumerate() {
        let mut outside_clear = true;
        for (d, depth) in (0..SIZE).enumerate() {
            let Some(sq) = side.square(across, depth) else {
                break;
            };
            if outside_clear && board.attackers().contains(sq) {
                let best_before = if i == 0 {
                    Some((0, 0))
                } else {
                    let prev = reach.get(i - 1)?;
                    (d.saturating_sub(1)..=(d + 1).min(N - 1))
                        .filter_map(|p| prev.get(p).copied().flatten().map(|v| (v, p)))
                        .max()
                };
                if let Some((v, p)) = best_before {
                    *reach.get_mut(i)?.get_mut(d)? = Some(v + u32::from(depth));
                    *from.get_mut(i)?.get_mut(d)? = u8::try_from(p).ok()?;
                }
            }
            if defenders.contains(sq) {
                outside_clear = false;
            }
        }
    }
    let last = reach.get(N - 1)?;
    let (_, mut d) = last
        .iter()
        .enumerate()
        .filter_map(|(d, v)| v.map(|v| (v, d)))
        .max()?;
    let mut out = [0u8; N];
    for i in (0..N).rev() {
        *out.get_mut(i)? = u8::try_from(d).ok()?;
        d = usize::from(*from.get(i)?.get(d)?);
    }
    Some(out)
}

/// The first side (north, east, south, west) with a cordon, and the cordon.
pub(crate) fn any_cordon(board: &Board) -> Option<(Side, Cordon)> {
    Side::ALL
        .into_iter()
        .find_map(|s| cordon(board, s).map(|c| (s, c)))
}

/// The squares of a cordon.
pub(crate) fn cordon_squares(side: Side, c: &Cordon) -> Bitboard {
    let mut set = Bitboard::EMPTY;
    for (across, &depth) in (0..SIZE).zip(c.iter()) {
        if let Some(sq) = side.square(across, depth) {
            set.insert(sq);
        }
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn barricade_squares_of_a1_and_k11() {
        let a1 = Square::CORNERS[0];
        assert_eq!(barricade_middle(a1), Bitboard::from_square(sq("b2")));
        let border: Vec<String> = barricade_border(a1).iter().map(|s| s.to_string()).collect();
        assert_eq!(border, ["c1", "a3"]);
        let k11 = Square::CORNERS[3];
        assert_eq!(barricade_middle(k11), Bitboard::from_square(sq("j10")));
        assert_eq!(barricade_squares(k11).count(), 5);
        assert!(!is_barricaded(&Board::start(), a1));
    }

    #[test]
    fn a_straight_line_of_attackers_is_a_cordon_and_a_gap_is_not() {
        let mut rows = vec!["...........".to_string(); 11];
        rows[1] = "XXXXXXXXXXX".to_string(); // rank 10
        rows[5] = ".....K.....".to_string();
        let board = Board::from_rows(rows.iter().map(String::as_str)).unwrap();
        assert_eq!(cordon(&board, Side::North), Some([1; 11]));
        assert_eq!(cordon(&board, Side::South), None);
        rows[1] = "XXXXX.XXXXX".to_string();
        rows[2] = ".....X.....".to_string(); // f9: one step in, still closed
        let board = Board::from_rows(rows.iter().map(String::as_str)).unwrap();
        let c = cordon(&board, Side::North).unwrap();
        assert_eq!(c[5], 2);
        rows[2] = "...........".to_string();
        rows[3] = ".....X.....".to_string(); // f8: two steps, a gap
        let board = Board::from_rows(rows.iter().map(String::as_str)).unwrap();
        assert_eq!(cordon(&board, Side::North), None);
    }

    #[test]
    fn a_defender_outside_breaks_the_cordon() {
        let mut rows = vec!["...........".to_string(); 11];
        rows[0] = "....O......".to_string();
        rows[1] = "XXXXXXXXXXX".to_string();
        rows[5] = ".....K.....".to_string();
        let board = Board::from_rows(rows.iter().map(String::as_str)).unwrap();
        assert_eq!(cordon(&board, Side::North), None);
    }

    #[test]
    fn king_reach_at_the_start_is_zero() {
        assert_eq!(king_reach(&Board::start()), 0);
        assert_eq!(guards(&Board::start(), Square::THRONE), 12);
    }
}
