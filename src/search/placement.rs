//! Where the pieces stand: the evaluation's piece-square terms.
//!
//! The board's eight symmetries (the rules and the start position have them all) split its
//! squares into 21 classes, named by their square in the a1 quarter below the diagonal: a1
//! with the other corners, a2 with the other squares next to a corner, ..., f6 the
//! throne. A piece-square term counts one kind of piece (king, attacker, defender) on one
//! class, so a fitted weight says what that kind of piece is worth there, and the
//! evaluation stays symmetric. No piece stands on a corner, and no soldier on the throne:
//! those classes have no term. Nor have e6 and f6 (the throne and the squares next to
//! it): they are the reference, worth nothing beyond the other terms. With a term for
//! every class, the king's would always sum to 1 and each side's soldiers' to its
//! material, and with one class less the king's distance to the corners would still be
//! their sum plus a constant: the tuner could shift weight between them without end.

use crate::core::bitboard::Bitboard;
use crate::core::square::Square;

/// The number of square classes (a1 to f6).
pub const CLASSES: usize = 21;

/// The classes with a term, for each kind of piece: a2 to d6 (classes 1 to 18).
pub const KIND_TERMS: usize = CLASSES - 3;

/// The number of piece-square terms: the king's, then the attackers', then the
/// defenders'.
pub const TERMS: usize = 3 * KIND_TERMS;

/// The class of a square: with `a ≤ b ≤ 5` its distances from the nearer edges, sorted,
/// the class is `b (b + 1) / 2 + a` (a1 is 0, a2 1, b2 2, a3 3, ..., f6 20).
const fn class_of(index: usize) -> u8 {
    let (f, r) = ((index % 11) as u8, (index / 11) as u8);
    let f = if f > 5 { 10 - f } else { f };
    let r = if r > 5 { 10 - r } else { r };
    let (a, b) = if f <= r { (f, r) } else { (r, f) };
    b * (b + 1) / 2 + a
}

const fn class_table() -> [u8; 121] {
    let mut t = [0u8; 121];
    let mut i = 0;
    while i < 121 {
        t[i] = class_of(i);
        i += 1;
    }
    t
}

/// The class of each square, by square index.
pub const CLASS: [u8; 121] = class_table();

/// The class of `sq`.
#[inline(always)]
pub fn class(sq: Square) -> usize {
    usize::from(CLASS.get(sq.index()).copied().unwrap_or(0))
}

/// The index among one kind's terms of the class `c`, if it has a term (a corner, class
/// 0, has none, nor have e6 and f6, the reference).
#[inline(always)]
fn term_of(c: usize) -> Option<usize> {
    (1..=KIND_TERMS).contains(&c).then(|| c - 1)
}

/// Adds one to `out[base + term]` for each piece of `pieces` on a class with a term.
#[inline(always)]
fn count(pieces: Bitboard, out: &mut [i32], base: usize) {
    for sq in pieces.iter() {
        if let Some(slot) = term_of(class(sq)).and_then(|t| out.get_mut(base + t)) {
            *slot += 1;
        }
    }
}

/// The piece-square terms of a position: the king's class (one term is 1, or none on
/// the reference), then the number of attackers, then of defenders, on each class.
#[inline(always)]
pub fn terms(king: Bitboard, attackers: Bitboard, defenders: Bitboard) -> [i32; TERMS] {
    let mut out = [0; TERMS];
    count(king, &mut out, 0);
    count(attackers, &mut out, KIND_TERMS);
    count(defenders, &mut out, 2 * KIND_TERMS);
    out
}

/// The piece-square weights spread over the squares: for the king, the attackers and the
/// defenders, what one piece on each square adds to the evaluation (128 entries, so that
/// any bit index of a board has one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tables([[i32; 128]; 3]);

impl Tables {
    /// The tables of the piece-square weights `w` (in the order of [`terms`]).
    pub fn new(w: &[i32; TERMS]) -> Tables {
        let mut t = [[0; 128]; 3];
        for (kind, table) in t.iter_mut().enumerate() {
            for (i, slot) in table.iter_mut().enumerate() {
                let c = usize::from(CLASS.get(i).copied().unwrap_or(0));
                if let Some(v) = term_of(c).and_then(|t| w.get(kind * KIND_TERMS + t)) {
                    *slot = *v;
                }
            }
        }
        Tables(t)
    }

    /// The weighted sum of the piece-square terms of the position, as the weights times
    /// [`terms`] would give it.
    #[inline(always)]
    pub fn score(&self, king: Bitboard, attackers: Bitboard, defenders: Bitboard) -> i32 {
        let [k, a, d] = &self.0;
        sum(k, king) + sum(a, attackers) + sum(d, defenders)
    }
}

/// The entries of `table` at the squares of `pieces`. The board is read as two 64-bit
/// halves: finding and clearing the lowest bit of a `u64` is one instruction each, of a
/// `u128` several.
#[inline(always)]
fn sum(table: &[i32; 128], pieces: Bitboard) -> i32 {
    let mut s = 0;
    for (half, base) in [(pieces.0 as u64, 0), ((pieces.0 >> 64) as u64, 64)] {
        let mut bits = half;
        while bits != 0 {
            s += table[(base + bits.trailing_zeros() as usize) & 127];
            bits &= bits - 1;
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_are_the_orbits_of_the_symmetries() {
        let mut sizes = [0; CLASSES];
        for i in 0..121u8 {
            let Some(sq) = Square::new(i) else {
                panic!("square {i}");
            };
            for sym in 0..8 {
                assert_eq!(class(sq.transform(sym)), class(sq), "{sq} sym {sym}");
            }
            sizes[class(sq)] += 1;
        }
        // The classes on a diagonal or on a middle line have 4 squares (the throne,
        // on both, 1), the others 8.
        let diagonal = [0, 2, 5, 9, 14];
        let middle = [15, 16, 17, 18, 19];
        for (c, n) in sizes.iter().enumerate() {
            let want = if c == 20 {
                1
            } else if diagonal.contains(&c) || middle.contains(&c) {
                4
            } else {
                8
            };
            assert_eq!(*n, want, "class {c}");
        }
        assert_eq!(sizes.iter().sum::<i32>(), 121);
        let sq = |s: &str| s.parse::<Square>().map(class).ok();
        assert_eq!(sq("a1"), Some(0));
        assert_eq!(sq("b1"), Some(1));
        assert_eq!(sq("k10"), Some(1));
        assert_eq!(sq("c2"), Some(4));
        assert_eq!(sq("f6"), Some(20));
        assert_eq!(sq("e6"), Some(19));
    }
}
