//! The transposition table: a lockless hash table shared by all search threads.
//!
//! Each entry is a pair of `AtomicU64`: the data word and the key XORed with the data. A
//! reader accepts an entry only when `key ^ data` matches, so a torn write by another
//! thread reads as a miss, never as a wrong entry. No `unsafe` is needed. Buckets hold two
//! entries: the first is replaced only by deeper or newer results, the second always.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::core::geometry::Geometry;
use crate::core::geometry::S11;
use crate::core::moves::MoveOf;
use crate::core::square::SquareOf;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true value is at most the score (fail-low).
    Upper,
    /// The true value is at least the score (fail-high).
    Lower,
    /// The score is exact.
    Exact,
}

/// One probed entry, its move on the board of geometry `G` (the table itself stores
/// square indices, whatever the board).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry<G: Geometry = S11> {
    /// The best or refuting move, if any.
    pub(crate) mv: Option<MoveOf<G>>,
    /// The score, with win/loss scores relative to the stored node.
    pub(crate) score: i32,
    /// The remaining depth the score was searched to.
    pub(crate) depth: i32,
    /// The kind of bound.
    pub(crate) bound: Bound,
}

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The shared table.
pub(crate) struct Table {
    slots: Vec<Slot>,
    buckets: usize,
    age: AtomicU64,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({} buckets)", self.buckets)
    }
}

const SLOT_BYTES: usize = 16;

/// A move in the data word: the low eight bits of each square in bits 0..16, the ninth
/// (17x17 and 19x19 only) in bits 42 and 43, which no other field uses, so that the
/// smaller boards' words are what they were.
fn encode_move<G: Geometry>(mv: Option<MoveOf<G>>) -> u64 {
    match mv {
        Some(m) => {
            let (from, to) = (m.from.index() as u64, m.to.index() as u64);
            (from & 0xff) | (to & 0xff) << 8 | (from >> 8 & 1) << 42 | (to >> 8 & 1) << 43
        }
        None => 0,
    }
}

/// The move of a data word ([`encode_move`]). Always inlined, as [`Table::store`] is: with
/// `store` inlined, the compiler put this out of line for every board.
#[inline(always)]
fn decode_move<G: Geometry>(data: u64) -> Option<MoveOf<G>> {
    let from = SquareOf::new(((data & 0xff) | (data >> 42 & 1) << 8) as usize)?;
    let to = SquareOf::new(((data >> 8 & 0xff) | (data >> 43 & 1) << 8) as usize)?;
    MoveOf::new(from, to)
}

fn pack<G: Geometry>(mv: Option<MoveOf<G>>, score: i32, depth: i32, bound: Bound, age: u64) -> u64 {
    let b = match bound {
        Bound::Upper => 1u64,
        Bound::Lower => 2,
        Bound::Exact => 3,
    };
    encode_move(mv)
        | ((score.clamp(-32767, 32767) as i16 as u16 as u64) << 16)
        | ((depth.clamp(0, 255) as u64) << 32)
        | (b << 40)
        | ((age & 0xff) << 48)
}

fn unpack<G: Geometry>(data: u64) -> Option<Entry<G>> {
    let bound = match data >> 40 & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    Some(Entry {
        mv: decode_move(data),
        score: (data >> 16 & 0xffff) as u16 as i16 as i32,
        depth: (data >> 32 & 0xff) as i32,
        bound,
    })
}

impl Table {
    /// A table of about `mb` MiB (at least one bucket).
    pub(crate) fn new(mb: usize) -> Table {
        let slots = (mb.max(1) * 1024 * 1024 / SLOT_BYTES).max(2) & !1;
        Table {
            slots: (0..slots)
                .map(|_| Slot {
                    check: AtomicU64::new(0),
                    data: AtomicU64::new(0),
                })
                .collect(),
            buckets: slots / 2,
            age: AtomicU64::new(0),
        }
    }

    /// Forgets every entry.
    pub(crate) fn clear(&self) {
        for s in &self.slots {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub(crate) fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        (((key as u128) * (self.buckets as u128)) >> 64) as usize * 2
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub(crate) fn probe<G: Geometry>(&self, key: u64) -> Option<Entry<G>> {
        let b = self.bucket(key);
        for i in b..b + 2 {
            let Some(slot) = self.slots.get(i) else {
                continue;
            };
            let data = slot.data.load(Ordering::Relaxed);
            if data != 0 && slot.check.load(Ordering::Relaxed) ^ data == key {
                return unpack(data);
            }
        }
        None
    }

    /// Stores a result for `key`. Always inlined: once Berserk's search stored here too, the
    /// compiler kept one out-of-line copy for 11x11 that the ordinary search called, at a
    /// cost to every node it stores (docs/experiments.md, session 50).
    #[inline(always)]
    pub(crate) fn store<G: Geometry>(
        &self,
        key: u64,
        mv: Option<MoveOf<G>>,
        score: i32,
        depth: i32,
        bound: Bound,
    ) {
        let age = self.age.load(Ordering::Relaxed) & 0xff;
        let b = self.bucket(key);
        let (Some(first), Some(second)) = (self.slots.get(b), self.slots.get(b + 1)) else {
            return;
        };
        let old = first.data.load(Ordering::Relaxed);
        let same = old != 0 && first.check.load(Ordering::Relaxed) ^ old == key;
        let old_depth = (old >> 32 & 0xff) as i32;
        let old_age = old >> 48 & 0xff;
        let slot = if old == 0 || same || old_age != age || depth >= old_depth {
            first
        } else {
            second
        };
        // Keep the old move when the new result has none and the key is the same.
        let mut mv = mv;
        if mv.is_none() {
            let d = slot.data.load(Ordering::Relaxed);
            if d != 0 && slot.check.load(Ordering::Relaxed) ^ d == key {
                mv = decode_move(d);
            }
        }
        let data = pack(mv, score, depth, bound, age);
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::moves::Move;

    #[test]
    fn store_and_probe() {
        let t = Table::new(1);
        let mv: Move = "h1-h3".parse().unwrap();
        t.store(12345, Some(mv), -29990, 7, Bound::Lower);
        let e = t.probe(12345).unwrap();
        assert_eq!(e.mv, Some(mv));
        assert_eq!(e.score, -29990);
        assert_eq!(e.depth, 7);
        assert_eq!(e.bound, Bound::Lower);
        assert!(t.probe::<S11>(54321).is_none());
        t.clear();
        assert!(t.probe::<S11>(12345).is_none());
    }

    #[test]
    fn moves_of_the_largest_board_keep_their_ninth_bit() {
        use crate::core::geometry::S19;
        let t = Table::new(1);
        let mv: MoveOf<S19> = "s19-s3".parse().unwrap();
        t.store(777, Some(mv), 5, 3, Bound::Exact);
        assert_eq!(t.probe::<S19>(777).and_then(|e| e.mv), Some(mv));
        // A move of the smaller boards leaves the ninth bits clear.
        let small: MoveOf<S11> = "k11-k1".parse().unwrap();
        assert_eq!(encode_move(Some(small)) >> 16, 0);
    }
}
