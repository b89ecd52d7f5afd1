//! The positions the repetition rule compares, with one owner: a stack of the positions
//! played with the index of the last irreversible move, which answers for every
//! [`RepetitionMode`] whether a move is banned or ends the game.
//! [`Game`](super::game::Game) keeps one for the game; the search copies the part since the
//! last capture and pushes its path on top, so both apply the same rule to the same
//! positions.
//!
//! Pieces are never added, so no position from before a capture can come back: a capture
//! is an irreversible move, and only the positions since the last one are compared.

use super::bitboard::BitboardOf;
use super::geometry::Geometry;
use super::moves::MoveOf;
use super::position::PositionOf;
use super::repetition::{RepetitionMode, Verdict};

/// One position of the stack.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// Board and side to move.
    hash: u64,
    /// Board alone.
    board_hash: u64,
    /// The index of the first entry this position and the ones after it can repeat: the
    /// position right after the last irreversible move.
    since: u32,
}

/// The positions of a game (or of a game and a search path), most recent last, with the
/// index of the last irreversible move. Never empty.
#[derive(Clone, Debug)]
pub struct PositionHistory {
    entries: Vec<Entry>,
    /// The first position is an earlier board for the rule (false where a server leaves
    /// the game's start out of its record, [`RuleSet::first_position_counts`]).
    ///
    /// [`RuleSet::first_position_counts`]: super::rules::RuleSet::first_position_counts
    first_counts: bool,
}

impl PositionHistory {
    /// A history holding the first position.
    pub(crate) fn new<G: Geometry>(first: &PositionOf<G>) -> PositionHistory {
        let mut entries = Vec::with_capacity(256);
        entries.push(Entry {
            hash: first.hash(),
            board_hash: first.board_hash(),
            since: 0,
        });
        PositionHistory {
            entries,
            first_counts: true,
        }
    }

    /// Leaves the first position out of the comparisons: no move repeats it.
    pub(crate) fn forget_first(&mut self) {
        self.first_counts = false;
    }

    /// The number of positions.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Adds the position a move led to; `irreversible` when no earlier position can come
    /// back after it (the move captured; the search's null move too).
    #[inline(always)]
    pub(crate) fn push<G: Geometry>(&mut self, pos: &PositionOf<G>, irreversible: bool) {
        let len = self.entries.len() as u32;
        let since = match self.entries.last() {
            Some(top) if !irreversible => top.since,
            _ => len,
        };
        self.entries.push(Entry {
            hash: pos.hash(),
            board_hash: pos.board_hash(),
            since,
        });
    }

    /// Takes back the last position (never the first one).
    #[inline(always)]
    pub(crate) fn pop(&mut self) {
        if self.entries.len() > 1 {
            self.entries.pop();
        }
    }

    /// Keeps the first `len` positions (at least one).
    #[inline(always)]
    pub(crate) fn truncate(&mut self, len: usize) {
        self.entries.truncate(len.max(1));
    }

    /// The positions since the last irreversible move, the current one included: all a
    /// search from the current position needs.
    pub(crate) fn since_irreversible(&self) -> PositionHistory {
        let start = self.entries.last().map_or(0, |e| e.since as usize);
        let tail = self.entries.get(start..).unwrap_or(&[]);
        let mut entries = Vec::with_capacity(tail.len() + 256);
        entries.extend(tail.iter().map(|e| Entry { since: 0, ..*e }));
        PositionHistory {
            entries,
            first_counts: self.first_counts || start > 0,
        }
    }

    /// The positions since the last irreversible move, the current one included.
    #[inline(always)]
    fn reversible(&self) -> &[Entry] {
        let since = self.entries.last().map_or(0, |e| e.since as usize);
        let start = if self.first_counts {
            since
        } else {
            since.max(1)
        };
        self.entries.get(start..).unwrap_or(&[])
    }

    /// True when the position `hash`, reached from the current one by a move without a
    /// capture, occurred at least `n` times before. A position recurs with the same side
    /// to move, so only every other entry is compared, from the one before the current.
    #[inline(always)]
    fn occurred(&self, hash: u64, n: u32) -> bool {
        let mut seen = 0;
        for e in self.reversible().iter().rev().skip(1).step_by(2) {
            if e.hash == hash {
                seen += 1;
                if seen >= n {
                    return true;
                }
            }
        }
        false
    }

    /// True when the board `board_hash` (side to move ignored) is one of the positions
    /// since the last irreversible move.
    #[inline(always)]
    fn board_occurred(&self, board_hash: u64) -> bool {
        self.reversible().iter().any(|e| e.board_hash == board_hash)
    }

    /// The rule's verdict on `mv`, a move the other rules allow from `before` (the current
    /// position), which captured `captured` and led to `after`.
    #[inline]
    pub(crate) fn judge<G: Geometry>(
        &self,
        mode: RepetitionMode,
        before: &PositionOf<G>,
        mv: MoveOf<G>,
        captured: BitboardOf<G>,
        after: &PositionOf<G>,
    ) -> Verdict {
        if !mode.restricts(before.to_move()) {
            return Verdict::Allowed;
        }
        let verdict = match mode {
            RepetitionMode::Off => false,
            RepetitionMode::DefenderThirdIllegal => {
                captured.is_empty() && self.occurred(after.hash(), 2)
            }
            RepetitionMode::DefenderAnyRepeatIllegal => {
                self.board_occurred(before.moved_board_hash(mv))
            }
            RepetitionMode::AnyRepeatIllegal => {
                captured.is_empty() && self.board_occurred(after.board_hash())
            }
            RepetitionMode::ThirdOccurrenceMoverLoses
            | RepetitionMode::ThirdOccurrenceDraws
            | RepetitionMode::ThirdOccurrenceMoverWins => {
                return match mode.third_occurrence_ends() {
                    Some(ends) if captured.is_empty() && self.occurred(after.hash(), 2) => ends,
                    _ => Verdict::Allowed,
                };
            }
        };
        if verdict {
            Verdict::Banned
        } else {
            Verdict::Allowed
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::position::Position;

    #[test]
    fn a_capture_forgets_the_positions_before_it() {
        let start = Position::start();
        let mut h = PositionHistory::new(&start);
        h.push(&start, false);
        h.push(&start, true);
        assert_eq!(h.reversible().len(), 1);
        assert_eq!(h.since_irreversible().len(), 1);
        h.push(&start, false);
        assert_eq!(h.reversible().len(), 2);
        h.pop();
        h.pop();
        assert_eq!(h.reversible().len(), 2);
        h.truncate(0);
        assert_eq!(h.len(), 1);
    }
}
