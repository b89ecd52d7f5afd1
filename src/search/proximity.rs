//! Who stands near the king: the evaluation's king-relative terms.
//!
//! A piece near the king is counted by its offset from him, as the sorted pair `(a, b)`
//! of its distances along files and ranks (`a ≤ b`), up to three squares: nine offsets,
//! (0, 1) the squares next to him to (3, 3) the far corners of the 7×7 box around him.
//! One term per offset and side: the attackers there (how far the net has closed, and
//! where), and the defender soldiers (his escort, or what blocks his own lines). Pieces
//! further away are the reference: with them counted too, each side's terms would sum to
//! its material. The offsets are symmetric, as the rest of the evaluation, and the same on
//! every board.

use crate::core::bitboard::BitboardOf;
use crate::core::geometry::Geometry;
use crate::core::square::SquareOf;

/// The largest distance, along files or ranks, of a piece counted.
pub(crate) const REACH: usize = 3;

/// The number of offsets `(a, b)` with `a ≤ b`, `1 ≤ b ≤ REACH`.
pub(crate) const OFFSETS: usize = (REACH + 1) * (REACH + 2) / 2 - 1;

/// The number of king-relative terms: the attackers' for each offset, then the
/// defenders'.
pub(crate) const TERMS: usize = 2 * OFFSETS;

/// The term index of the offset with sorted distances `a ≤ b` (`b ≥ 1`): the offsets of
/// distance `b` follow those of the smaller ones, `(0, 1)` is 0, `(1, 1)` 1, `(0, 2)` 2,
/// ..., `(3, 3)` 8.
pub(crate) const fn offset_index(a: usize, b: usize) -> usize {
    b * (b + 1) / 2 - 1 + a
}

/// The offset index of `sq` from the king on `king`, if it is counted.
#[inline]
fn offset_of<G: Geometry>(king: SquareOf<G>, sq: SquareOf<G>) -> Option<usize> {
    let df = usize::from(sq.file().abs_diff(king.file()));
    let dr = usize::from(sq.rank().abs_diff(king.rank()));
    let (a, b) = (df.min(dr), df.max(dr));
    (1..=REACH).contains(&b).then(|| offset_index(a, b))
}

/// The king-relative terms: the number of attackers at each offset from the king, then
/// of defender soldiers.
pub(crate) fn terms<G: Geometry>(
    king: SquareOf<G>,
    attackers: BitboardOf<G>,
    defenders: BitboardOf<G>,
) -> [i32; TERMS] {
    let mut out = [0; TERMS];
    for (base, pieces) in [(0, attackers), (OFFSETS, defenders)] {
        for sq in pieces {
            if let Some(slot) = offset_of(king, sq).and_then(|i| out.get_mut(base + i)) {
                *slot += 1;
            }
        }
    }
    out
}

/// For each square of the king on board `G`, the squares at each offset from it: a
/// piece's offset costs one intersection, not a subtraction per piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Rings<G: Geometry>(Vec<[BitboardOf<G>; OFFSETS]>);

impl<G: Geometry> Rings<G> {
    /// The rings of every square of `G`.
    pub(crate) fn new() -> Rings<G> {
        Rings(
            SquareOf::<G>::all()
                .map(|king| {
                    let mut rings = [BitboardOf::EMPTY; OFFSETS];
                    for sq in SquareOf::<G>::all() {
                        if let Some(ring) = offset_of(king, sq).and_then(|i| rings.get_mut(i)) {
                            *ring |= BitboardOf::from_square(sq);
                        }
                    }
                    rings
                })
                .collect(),
        )
    }

    /// The weighted sum of the king-relative terms, as the weights `w` (in the order of
    /// [`terms`]) times [`terms`] would give it.
    #[inline(always)]
    pub(crate) fn score(
        &self,
        w: &[i32; TERMS],
        king: SquareOf<G>,
        attackers: BitboardOf<G>,
        defenders: BitboardOf<G>,
    ) -> i32 {
        // Every square has its rings; a reference, so that the row is not copied.
        let Some(rings) = self.0.get(king.index()) else {
            return 0;
        };
        let (wa, wd) = w.split_at(OFFSETS);
        let mut s = 0;
        for ((&ring, a), d) in rings.iter().zip(wa).zip(wd) {
            s += a * (attackers & ring).count() as i32;
            s += d * (defenders & ring).count() as i32;
        }
        s
    }
}

impl<G: Geometry> Default for Rings<G> {
    fn default() -> Rings<G> {
        Rings::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::{S11, S13};

    #[test]
    fn rings_hold_the_squares_at_their_offset() {
        let rings = Rings::<S11>::new();
        let Ok(middle) = "f6".parse::<SquareOf<S11>>() else {
            panic!("f6");
        };
        // In the middle of the board every offset is whole: 4 squares on a line or a
        // diagonal, 8 otherwise, 48 in the 7×7 box without the king.
        let Some(around) = rings.0.get(middle.index()) else {
            panic!("no rings");
        };
        assert_eq!(around.map(|r| r.count()), [4, 4, 4, 8, 4, 4, 8, 8, 4]);
        assert!(!around.iter().any(|r| r.contains(middle)));
    }

    fn score_is_the_weighted_terms_on<G: Geometry>() {
        let rings = Rings::<G>::new();
        let w: [i32; TERMS] = std::array::from_fn(|i| i as i32 * 7 - 50);
        for king in SquareOf::<G>::all() {
            let others = !BitboardOf::from_square(king) & BitboardOf::FULL;
            let a: BitboardOf<G> = others.into_iter().filter(|s| s.index() % 3 == 0).collect();
            let d: BitboardOf<G> = others.into_iter().filter(|s| s.index() % 3 == 1).collect();
            let t = terms(king, a, d);
            let weighed: i32 = t.iter().zip(w).map(|(t, w)| t * w).sum();
            assert_eq!(rings.score(&w, king, a, d), weighed, "{king}");
        }
    }

    #[test]
    fn score_is_the_weighted_terms() {
        score_is_the_weighted_terms_on::<S11>();
        score_is_the_weighted_terms_on::<S13>();
    }
}
