//! The escape and capture threats of any board under any rule set: where the king
//! escapes (a corner or any edge square), the free lines that lead there, the attacker
//! moves that block them, and whether an attacker move captures the king now, however
//! the rules capture him.

use crate::core::bitboard::BitboardOf;
use crate::core::board::BoardOf;
use crate::core::capture;
use crate::core::corners::Corners;
use crate::core::geometry::Geometry;
use crate::core::king::Escape;
use crate::core::movegen::{
    between, king_targets, may_slide, nearest_blockers, slides, slides_at_most,
};
use crate::core::moves::{MoveListOf, MoveOf};
use crate::core::role::Role;
use crate::core::rules::RuleSet;

/// What the threats of one rule set on one board size need, computed once per search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Threats<G: Geometry> {
    /// The rules.
    pub(crate) rules: RuleSet,
    /// The squares where the king escapes.
    pub(crate) escapes: BitboardOf<G>,
    /// The squares no soldier may stop on.
    pub(crate) restricted: BitboardOf<G>,
    /// The squares on a file or rank of an escape square: elsewhere the king sees none,
    /// and the tests of his escape lines stop at once (under corner escape, off the edge).
    pub(crate) in_sight: BitboardOf<G>,
    /// The squares the king may not stop on.
    king_barred: BitboardOf<G>,
    /// Every piece slides as far as the empty squares let it ([`RuleSet::slides_freely`]):
    /// read once here, not at every node.
    free: bool,
}

impl<G: Geometry> Threats<G> {
    /// The threats under `rules`.
    pub(crate) fn new(rules: &RuleSet) -> Threats<G> {
        let escapes = match rules.escape {
            Escape::Corners => rules.corner_squares::<G>(),
            // Not the edge squares he may never enter (forts).
            Escape::Edges => BitboardOf::EDGE & !rules.walls_of::<G>(false),
        };
        let in_sight = crate::core::square::SquareOf::<G>::all()
            .filter(|sq| {
                escapes
                    .into_iter()
                    .any(|e| e.file() == sq.file() || e.rank() == sq.rank())
            })
            .collect();
        Threats {
            rules: *rules,
            escapes,
            in_sight,
            restricted: rules.restricted::<G>(),
            king_barred: rules.king_barred::<G>(),
            free: rules.slides_freely(),
        }
    }

    /// The squares the king on `board` can move to.
    #[inline(always)]
    pub(crate) fn king_reach(&self, board: &BoardOf<G>) -> BitboardOf<G> {
        if self.free {
            return slides(board.king(), board.occupied()) & !self.king_barred;
        }
        king_targets(board, &self.rules)
    }

    /// The squares a king on `from` would slide to (or pass) through the empty squares of
    /// `occ`, within his speed limit.
    #[inline(always)]
    fn king_slides(
        &self,
        from: crate::core::square::SquareOf<G>,
        occ: BitboardOf<G>,
    ) -> BitboardOf<G> {
        if self.free {
            return slides(from, occ);
        }
        let occ = occ | self.rules.walls_of::<G>(false);
        match self.rules.speed.king {
            None => slides(from, occ),
            Some(limit) => slides_at_most(from, occ, limit),
        }
    }

    /// The squares from which the king would see an escape square along a free line, one
    /// set per line: under corner escape one per corner, under edge escape one per edge
    /// (the squares whose line towards that edge is free to it). `occ` must not hold the
    /// king. The escape squares themselves are left out.
    #[inline(always)]
    pub(crate) fn lines(&self, occ: BitboardOf<G>) -> [BitboardOf<G>; 4] {
        match self.rules.escape {
            Escape::Corners if self.rules.corners == Corners::Blocks => {
                // A square sees a corner's block along one line at most (its file or its
                // rank leads into the block, not both), so a block's lines are one.
                let block = |corner: crate::core::square::SquareOf<G>| {
                    self.escapes
                        .into_iter()
                        .filter(|sq| {
                            sq.file().abs_diff(corner.file()) <= 1
                                && sq.rank().abs_diff(corner.rank()) <= 1
                        })
                        .fold(BitboardOf::EMPTY, |seen, sq| seen | slides(sq, occ))
                        & !self.escapes
                };
                crate::core::square::SquareOf::<G>::CORNERS.map(block)
            }
            // The test of `free` once, not per corner: this runs at every node.
            Escape::Corners if self.free => self.corner_lines(occ, slides),
            Escape::Corners => self.corner_lines(occ, |corner, occ| self.king_slides(corner, occ)),
            Escape::Edges => {
                let empty = !(occ | self.rules.walls_of::<G>(false)) & BitboardOf::FULL;
                // A king with a speed limit sees an edge only that many squares away.
                let reach = self.rules.speed.king.unwrap_or(u8::MAX);
                let fill = |start: BitboardOf<G>, step: fn(BitboardOf<G>) -> BitboardOf<G>| {
                    let mut seen = start & empty;
                    let mut cur = seen;
                    let mut steps = 0;
                    while cur.any() && steps < reach {
                        steps += 1;
                        cur = step(cur) & empty & !seen;
                        seen |= cur;
                    }
                    seen & !start
                };
                [
                    fill(BitboardOf::RANK_LAST, BitboardOf::south),
                    fill(BitboardOf::FILE_LAST, BitboardOf::west),
                    fill(BitboardOf::RANK_1, BitboardOf::north),
                    fill(BitboardOf::FILE_A, BitboardOf::east),
                ]
            }
        }
    }

    /// [`Threats::lines`] under corner escape: each corner's line, as `slides` finds it.
    #[inline(always)]
    fn corner_lines(
        &self,
        occ: BitboardOf<G>,
        slides: impl Fn(crate::core::square::SquareOf<G>, BitboardOf<G>) -> BitboardOf<G>,
    ) -> [BitboardOf<G>; 4] {
        let mut out = [BitboardOf::EMPTY; 4];
        for (slot, corner) in out
            .iter_mut()
            .zip(crate::core::square::SquareOf::<G>::CORNERS)
        {
            if self.escapes.contains(corner) {
                *slot = slides(corner, occ);
            }
        }
        out
    }

    /// The escape squares the king can move to now.
    #[inline(always)]
    pub(crate) fn escape_targets(&self, board: &BoardOf<G>) -> BitboardOf<G> {
        if !self.in_sight.contains(board.king()) {
            return BitboardOf::EMPTY;
        }
        self.king_reach(board) & self.escapes
    }

    /// The number of lines on which the king can move to an escape square (each a line
    /// the attackers must block): the escape squares he can move to, but with the corner
    /// blocks, where a line may run through two of them, only the nearer.
    #[inline(always)]
    pub(crate) fn escape_lines(&self, board: &BoardOf<G>) -> u32 {
        let targets = self.escape_targets(board);
        if self.rules.corners != Corners::Blocks {
            return targets.count();
        }
        let king = board.king();
        targets
            .into_iter()
            .filter(|&t| (between(king, t) & targets).is_empty())
            .count() as u32
    }

    /// The squares an attacker must stop on to block every line of the king to an escape
    /// square (the escape square too, where a soldier may stop on it); empty when he
    /// sees none.
    #[inline]
    pub(crate) fn escape_blocks(&self, board: &BoardOf<G>) -> BitboardOf<G> {
        let king = board.king();
        let mut out = BitboardOf::EMPTY;
        for t in self.escape_targets(board) {
            out |= between(king, t) | BitboardOf::from_square(t);
        }
        out & !self.restricted
    }

    /// An attacker move that captures the king now (attackers to move), if there is one:
    /// an attacker that can slide onto an empty square next to him after which the rules
    /// find him captured. The move's own captures are left out: they only empty squares,
    /// and an empty square never helps to capture him.
    #[inline]
    pub(crate) fn king_capture(&self, board: &BoardOf<G>) -> Option<MoveOf<G>> {
        let gaps = board.king_bb().neighbours() & board.empty() & !self.restricted;
        for gap in gaps {
            // The attackers that see the gap: `slides` stops before the first piece.
            for from in nearest_blockers(gap, board.occupied()) & board.attackers() {
                if !self.free && !may_slide(board, Role::Attacker, from, gap, &self.rules) {
                    continue;
                }
                let mut after = *board;
                after.move_piece(Role::Attacker, from, gap);
                if capture::king_captured(&after, gap, &self.rules) {
                    return Some(MoveOf { from, to: gap });
                }
            }
        }
        None
    }

    /// True when the position is close to a quiet win: the king on the edge (a fort, or
    /// an escape, is near) or the defenders' region touching the edge on at most four
    /// squares (an encirclement is near).
    #[inline]
    pub(crate) fn quiet_win_near(&self, board: &BoardOf<G>) -> bool {
        if board.king().is_edge() {
            return true;
        }
        let region = board.defenders_and_king().flood(!board.attackers());
        (region & BitboardOf::EDGE).count() <= 4
    }

    /// True when the side not to move threatens to win with its next move if `us` passed:
    /// the attackers to capture the king, or the king to step onto a free line to an
    /// escape square.
    #[inline]
    pub(crate) fn threat_in_one(&self, board: &BoardOf<G>, us: Role) -> bool {
        match us {
            Role::Defender => self.king_capture(board).is_some(),
            Role::Attacker => {
                let occ_nk = board.occupied() ^ board.king_bb();
                let lines = self.lines(occ_nk);
                let all = lines[0] | lines[1] | lines[2] | lines[3];
                (self.king_reach(board) & all).any()
            }
        }
    }

    /// The king moves onto a square with a free line to an escape square (the search's
    /// checks), appended to `list`.
    #[inline]
    pub(crate) fn escape_threats(&self, board: &BoardOf<G>, list: &mut MoveListOf<G>) {
        let king = board.king();
        let occ_nk = board.occupied() ^ board.king_bb();
        for to in self.king_reach(board) {
            if (self.king_slides(to, occ_nk) & self.escapes).any() {
                list.push(MoveOf { from: king, to });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::{BoardSize, S7, S9, S11, S13, S15};
    use crate::core::position::PositionOf;
    use crate::core::preset::RulePreset;
    use crate::core::random_games::random_positions;

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
        for pos in random_positions::<G>(&rules, PositionOf::<G>::start(), 17, 30) {
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
}
