//! The repetition rule inside the search: the game's history (since its last capture)
//! plus the positions on the current search path.
//!
//! Pieces are never added, so no position from before a capture can come back: only the
//! game positions with the root's piece count matter, and on the path only the positions
//! since the last capture.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::core::game::{Game, RepetitionMode};
use crate::core::moves::Move;
use crate::core::position::Position;

use super::ordering::MAX_PLY;

/// The game's positions since its last capture.
#[derive(Debug, Default)]
pub struct GameHistory {
    /// Occurrences of each position (board and side to move).
    counts: FxHashMap<u64, u32>,
    /// The boards (side ignored).
    boards: FxHashSet<u64>,
    /// The repetition rule.
    pub mode: RepetitionMode,
}

impl GameHistory {
    /// Collects the history of `game`.
    pub fn new(game: &Game) -> GameHistory {
        let mut h = GameHistory {
            mode: game.rules().repetition,
            ..GameHistory::default()
        };
        let root = game.position();
        let n = root.board().occupied().count();
        for p in game.positions().iter().rev() {
            if p.board().occupied().count() != n {
                break;
            }
            *h.counts.entry(p.hash()).or_insert(0) += 1;
            h.boards.insert(p.board_hash());
        }
        h
    }
}

/// One position on the search path.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    hash: u64,
    board_hash: u64,
}

/// The search path with the index of its last irreversible position.
#[derive(Clone, Debug)]
pub struct Path {
    nodes: Vec<Node>,
    /// `irr[ply]`: the first ply whose position can still repeat at `ply` (the position
    /// right after the last capture or null move, or 0).
    irr: Vec<usize>,
}

impl Default for Path {
    fn default() -> Self {
        Path {
            nodes: vec![Node::default(); MAX_PLY + 3],
            irr: vec![0; MAX_PLY + 3],
        }
    }
}

impl Path {
    /// Sets the root.
    pub fn set_root(&mut self, pos: &Position) {
        if let (Some(n), Some(i)) = (self.nodes.get_mut(0), self.irr.get_mut(0)) {
            *n = Node {
                hash: pos.hash(),
                board_hash: pos.board_hash(),
            };
            *i = 0;
        }
    }

    /// Records the position at `ply` (reached from `ply - 1`); `reset` when the move
    /// captured (or was a null move), so no earlier position can come back.
    #[inline]
    pub fn set(&mut self, ply: usize, pos: &Position, reset: bool) {
        let prev = if ply == 0 {
            0
        } else {
            self.irr.get(ply - 1).copied().unwrap_or(0)
        };
        if let (Some(n), Some(i)) = (self.nodes.get_mut(ply), self.irr.get_mut(ply)) {
            *n = Node {
                hash: pos.hash(),
                board_hash: pos.board_hash(),
            };
            *i = if reset { ply } else { prev };
        }
    }

    /// How often the position with `hash` occurred before ply `ply` (game history and path
    /// up to `ply - 1`), for a position reached at `ply` without a capture.
    #[inline]
    fn occurrences(&self, game: &GameHistory, hash: u64, ply: usize) -> u32 {
        let irr = self.irr.get(ply.saturating_sub(1)).copied().unwrap_or(0);
        let mut n = 0;
        let first = if irr == 0 {
            n += game.counts.get(&hash).copied().unwrap_or(0);
            1
        } else {
            irr
        };
        for node in self.nodes.get(first..ply).unwrap_or(&[]) {
            if node.hash == hash {
                n += 1;
            }
        }
        n
    }

    /// True when the repetition rule bans the defender move `mv` from `before` (at
    /// `ply`), which captured `captured_any` and led to `after`.
    #[inline]
    pub fn banned(
        &self,
        game: &GameHistory,
        ply: usize,
        before: &Position,
        mv: Move,
        captured_any: bool,
        after: &Position,
    ) -> bool {
        match game.mode {
            RepetitionMode::DefenderThirdIllegal => {
                !captured_any && self.occurrences(game, after.hash(), ply + 1) >= 2
            }
            RepetitionMode::DefenderAnyRepeatIllegal => {
                let moved = before.moved_board_hash(mv);
                let irr = self.irr.get(ply).copied().unwrap_or(0);
                let first = if irr == 0 {
                    if game.boards.contains(&moved) {
                        return true;
                    }
                    1
                } else {
                    irr
                };
                self.nodes
                    .get(first..=ply)
                    .unwrap_or(&[])
                    .iter()
                    .any(|n| n.board_hash == moved)
            }
            RepetitionMode::Off | RepetitionMode::ThirdOccurrenceMoverLoses => false,
        }
    }

    /// True when, in mode `third-occurrence-mover-loses`, the move from ply `ply` to
    /// `after` (without captures) creates a third occurrence.
    #[inline]
    pub fn third_occurrence(&self, game: &GameHistory, ply: usize, after: &Position) -> bool {
        game.mode == RepetitionMode::ThirdOccurrenceMoverLoses
            && self.occurrences(game, after.hash(), ply + 1) >= 2
    }
}
