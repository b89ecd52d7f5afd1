//! Who stands near the king: the evaluation's king-relative terms.
//!
//! A piece near the king is counted by its offset from him, as the sorted pair `(a, b)`
//! of its distances along files and ranks (`a ≤ b`), up to three squares: nine offsets,
//! (0, 1) the squares next to him to (3, 3) the far corners of the 7×7 box around him.
//! One term per offset and side: the attackers there (how far the net has closed, and
//! where), and the defender soldiers (his escort, or what blocks his own lines). Pieces
//! further away are the reference: with them counted too, each side's terms would sum to
//! its material. The offsets are symmetric, as the rest of the evaluation.

use crate::core::bitboard::Bitboard;
use crate::core::square::Square;

/// The largest distance, along files or ranks, of a piece counted.
pub(crate) const REACH: usize = 3;

/// The number of offsets `(a, b)` with `a ≤ b`, `1 ≤ b ≤ REACH`.
pub const OFFSETS: usize = (REACH + 1) * (REACH + 2) / 2 - 1;

/// The number of king-relative terms: the attackers' for each offset, then the
/// defenders'.
pub const TERMS: usize = 2 * OFFSETS;

/// The term index of the offset with sorted distances `a ≤ b` (`b ≥ 1`): the offsets of
/// distance `b` follow those of the smaller ones, `(0, 1)` is 0, `(1, 1)` 1, `(0, 2)` 2,
/// ..., `(3, 3)` 8.
pub(crate) const fn offset_index(a: usize, b: usize) -> usize {
    b * (b + 1) / 2 - 1 + a
}

/// For each square of the king, the squares at each offset from it (as raw bits).
const fn ring_table() -> [[u128; OFFSETS]; 121] {
    let mut t = [[0u128; OFFSETS]; 121];
    let mut k: usize = 0;
    while k < 121 {
        let (kf, kr) = (k % 11, k / 11);
        let mut s: usize = 0;
        while s < 121 {
            let (f, r) = (s % 11, s / 11);
            let df = f.abs_diff(kf);
            let dr = r.abs_diff(kr);
            let (a, b) = if df <= dr { (df, dr) } else { (dr, df) };
            if b >= 1 && b <= REACH {
                t[k][offset_index(a, b)] |= 1u128 << s;
            }
            s += 1;
        }
        k += 1;
    }
    t
}

/// The squares at each offset from each square of the king.
static RINGS: [[u128; OFFSETS]; 121] = ring_table();

/// The squares at each offset from the king on `king` (a reference: the table's row is
/// not copied on every evaluation).
#[inline(always)]
fn rings(king: Square) -> &'static [u128; OFFSETS] {
    RINGS.get(king.index()).unwrap_or(&[0; OFFSETS])
}

/// The king-relative terms: the number of attackers at each offset from the king, then
/// of defender soldiers.
#[inline(always)]
pub fn terms(king: Square, attackers: Bitboard, defenders: Bitboard) -> [i32; TERMS] {
    let mut out = [0; TERMS];
    for (i, ring) in rings(king).iter().enumerate() {
        if let Some(slot) = out.get_mut(i) {
            *slot = (attackers.0 & ring).count_ones() as i32;
        }
        if let Some(slot) = out.get_mut(OFFSETS + i) {
            *slot = (defenders.0 & ring).count_ones() as i32;
        }
    }
    out
}

/// The weighted sum of the king-relative terms, as the weights `w` (in the order of
/// [`terms`]) times [`terms`] would give it.
#[inline(always)]
pub fn score(w: &[i32; TERMS], king: Square, attackers: Bitboard, defenders: Bitboard) -> i32 {
    let (wa, wd) = w.split_at(OFFSETS);
    let mut s = 0;
    for ((ring, a), d) in rings(king).iter().zip(wa).zip(wd) {
        s += a * (attackers.0 & ring).count_ones() as i32;
        s += d * (defenders.0 & ring).count_ones() as i32;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rings_hold_the_squares_at_their_offset() {
        for k in 0..121u8 {
            let Some(king) = Square::new(k) else {
                panic!("square {k}");
            };
            let mut seen = 0u128;
            for (i, &ring) in rings(king).iter().enumerate() {
                assert_eq!(seen & ring, 0, "offset {i} overlaps another");
                seen |= ring;
                for s in 0..121u8 {
                    let Some(sq) = Square::new(s) else {
                        panic!("square {s}");
                    };
                    let df = usize::from(sq.file().abs_diff(king.file()));
                    let dr = usize::from(sq.rank().abs_diff(king.rank()));
                    let want = df.max(dr) >= 1
                        && df.max(dr) <= REACH
                        && offset_index(df.min(dr), df.max(dr)) == i;
                    assert_eq!(ring & (1 << s) != 0, want, "king {king} square {sq}");
                }
            }
            assert_eq!(seen & (1 << k), 0, "the king's own square");
        }
        // In the middle of the board every offset is whole: 4 squares on a line or a
        // diagonal, 8 otherwise, 48 in the 7×7 box without the king.
        let Ok(middle) = "f6".parse::<Square>() else {
            panic!("f6");
        };
        let sizes = rings(middle).map(u128::count_ones);
        assert_eq!(sizes, [4, 4, 4, 8, 4, 4, 8, 8, 4]);
    }

    #[test]
    fn score_is_the_weighted_terms() {
        let w: [i32; TERMS] = std::array::from_fn(|i| i as i32 * 7 - 50);
        for (k, att, def) in [(60u8, 0x1234_5678_9abc_def0u128, 0x0f0f << 40), (0, !0, 0)] {
            let Some(king) = Square::new(k) else {
                panic!("square {k}");
            };
            let (a, d) = (
                Bitboard::from_bits(att & !(1 << k)),
                Bitboard::from_bits(def & !att & !(1 << k)),
            );
            let t = terms(king, a, d);
            let weighed: i32 = t.iter().zip(w).map(|(t, w)| t * w).sum();
            assert_eq!(score(&w, king, a, d), weighed);
        }
    }
}
