//! Where the pieces stand: the evaluation's piece-square terms.
//!
//! The board's eight symmetries (the rules and the start position have them all) split its
//! squares into classes, named by their square in the a1 quarter below the diagonal: a1
//! with the other corners, a2 with the other squares next to a corner, ..., f6 (on 11x11
//! the throne). A square's class is the pair of its distances from the nearer edges, so a
//! class means the same on every board; the squares six or more from every edge (on 13x13
//! and 15x15) have none and join the reference. A piece-square term counts one kind of
//! piece (king, attacker, defender) on one class, so a fitted weight says what that kind of
//! piece is worth there, and the evaluation stays symmetric. No piece stands on a corner,
//! and no soldier on an 11x11 throne: those classes have no term. Nor have e6 and f6 (the
//! throne and the squares next to it): they are the reference, worth nothing beyond the
//! other terms. With a term for every class, the king's would always sum to 1 and each
//! side's soldiers' to its material, and with one class less the king's distance to the
//! corners would still be their sum plus a constant: the tuner could shift weight between
//! them without end.

use crate::core::bitboard::BitboardOf;
use crate::core::geometry::Geometry;
use crate::core::square::SquareOf;

/// The number of square classes (a1 to f6).
pub(crate) const CLASSES: usize = 21;

/// The classes with a term, for each kind of piece: a2 to d6 (classes 1 to 18).
pub(crate) const KIND_TERMS: usize = CLASSES - 3;

/// The number of piece-square terms: the king's, then the attackers', then the
/// defenders'.
pub(crate) const TERMS: usize = 3 * KIND_TERMS;

/// A table of this length has an entry for every square of every board (the core's
/// per-square tables' length).
const TABLE: usize = crate::core::geometry::TABLE;

/// The class of `sq`: with `a ≤ b` its distances from the nearer edges, sorted, the class
/// is `b (b + 1) / 2 + a` (a1 is 0, a2 1, b2 2, a3 3, ..., f6 20); `None` when `b > 5`.
pub(crate) fn class<G: Geometry>(sq: SquareOf<G>) -> Option<usize> {
    let n = G::SIZE;
    let f = sq.file().min(n - 1 - sq.file());
    let r = sq.rank().min(n - 1 - sq.rank());
    let (a, b) = if f <= r { (f, r) } else { (r, f) };
    (b <= 5).then(|| usize::from(b * (b + 1) / 2 + a))
}

/// The index among one kind's terms of the square `sq`, if its class has a term (a
/// corner, class 0, has none, nor have e6 and f6, the reference).
#[inline]
fn term_of<G: Geometry>(sq: SquareOf<G>) -> Option<usize> {
    class(sq)
        .filter(|c| (1..=KIND_TERMS).contains(c))
        .map(|c| c - 1)
}

/// The piece-square terms of a position: the king's class (one term is 1, or none on
/// the reference), then the number of attackers, then of defenders, on each class.
pub(crate) fn terms<G: Geometry>(
    king: BitboardOf<G>,
    attackers: BitboardOf<G>,
    defenders: BitboardOf<G>,
) -> [i32; TERMS] {
    let mut out = [0; TERMS];
    for (kind, pieces) in [king, attackers, defenders].into_iter().enumerate() {
        for sq in pieces {
            if let Some(slot) = term_of(sq).and_then(|t| out.get_mut(kind * KIND_TERMS + t)) {
                *slot += 1;
            }
        }
    }
    out
}

/// The piece-square weights spread over the squares: for the king, what he adds to the
/// evaluation on each square, so that he costs one look-up; for each side's soldiers, their
/// weights as bit planes (see [`Planes`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Tables<G: Geometry> {
    king: [i32; TABLE],
    attackers: Planes<G>,
    defenders: Planes<G>,
}

impl<G: Geometry> Tables<G> {
    /// The tables of the piece-square weights `w` (in the order of [`terms`]) on board
    /// `G`.
    pub(crate) fn new(w: &[i32; TERMS]) -> Tables<G> {
        let weights = |kind: usize| {
            let mut t = [0; TABLE];
            for sq in SquareOf::<G>::all() {
                let weight = term_of(sq).and_then(|i| w.get(kind * KIND_TERMS + i));
                if let (Some(slot), Some(v)) = (t.get_mut(sq.index()), weight) {
                    *slot = *v;
                }
            }
            t
        };
        Tables {
            king: weights(0),
            attackers: Planes::new(&weights(1)),
            defenders: Planes::new(&weights(2)),
        }
    }

    /// The weighted sum of the piece-square terms of the position, as the weights times
    /// [`terms`] would give it.
    #[inline(always)]
    pub(crate) fn score(
        &self,
        king: SquareOf<G>,
        attackers: BitboardOf<G>,
        defenders: BitboardOf<G>,
    ) -> i32 {
        self.king.get(king.index()).copied().unwrap_or(0)
            + self.attackers.sum(attackers)
            + self.defenders.sum(defenders)
    }
}

/// One kind of soldier's weight on each square, as bit planes: the weight less the
/// smallest one is a sum of powers of two, and plane `k` holds the squares whose weight
/// has bit `k`. A side's sum over its soldiers is then a few population counts, where a
/// look-up per soldier would walk a wide bitboard square by square.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Planes<G: Geometry> {
    /// The smallest weight of any square.
    base: i32,
    /// The planes, lowest bit first, as many as the weights need.
    planes: Vec<BitboardOf<G>>,
}

impl<G: Geometry> Planes<G> {
    /// The planes of the weights `w`, by square index.
    fn new(w: &[i32; TABLE]) -> Planes<G> {
        let of = |sq: SquareOf<G>| w.get(sq.index()).copied().unwrap_or(0);
        let base = SquareOf::<G>::all().map(of).min().unwrap_or(0);
        let span = SquareOf::<G>::all()
            .map(|sq| of(sq) - base)
            .max()
            .unwrap_or(0);
        let planes = (0..(u32::BITS - span.leading_zeros()))
            .map(|k| {
                SquareOf::<G>::all()
                    .filter(|&sq| (of(sq) - base) >> k & 1 == 1)
                    .collect()
            })
            .collect();
        Planes { base, planes }
    }

    /// The sum of the weights of the squares of `pieces`.
    #[inline(always)]
    fn sum(&self, pieces: BitboardOf<G>) -> i32 {
        let mut s = self.base * pieces.count() as i32;
        for (k, &plane) in self.planes.iter().enumerate() {
            s += ((pieces & plane).count() as i32) << k;
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::S11;
    use crate::core::square::Square;

    /// The tables' score is the weights times the terms, on every board, whatever the
    /// weights' signs and sizes.
    fn score_is_the_weighted_terms_on<G: Geometry>() {
        let mut rng = crate::core::rng::SplitMix64::new(5);
        for spread in [1, 40, 20_001] {
            let w: [i32; TERMS] =
                std::array::from_fn(|_| rng.below(spread) as i32 - spread as i32 / 2);
            let tables = Tables::<G>::new(&w);
            for _ in 0..50 {
                let mut squares: Vec<SquareOf<G>> = SquareOf::<G>::all().collect();
                let king = squares.swap_remove(rng.below(squares.len()));
                let (mut a, mut d) = (BitboardOf::EMPTY, BitboardOf::EMPTY);
                for sq in squares {
                    match rng.below(3) {
                        0 => a |= BitboardOf::from_square(sq),
                        1 => d |= BitboardOf::from_square(sq),
                        _ => {}
                    }
                }
                let t = terms(BitboardOf::from_square(king), a, d);
                let weighed: i32 = t.iter().zip(w).map(|(t, w)| t * w).sum();
                assert_eq!(tables.score(king, a, d), weighed, "{king}");
            }
        }
    }

    #[test]
    fn score_is_the_weighted_terms() {
        score_is_the_weighted_terms_on::<crate::core::geometry::S7>();
        score_is_the_weighted_terms_on::<S11>();
        score_is_the_weighted_terms_on::<crate::core::geometry::S15>();
    }

    #[test]
    fn classes_are_the_orbits_of_the_symmetries() {
        let mut sizes = [0; CLASSES];
        for sq in SquareOf::<S11>::all() {
            let Some(c) = class(sq) else {
                panic!("{sq} has no class");
            };
            for sym in 0..8 {
                assert_eq!(class(sq.transform(sym)), Some(c), "{sq} sym {sym}");
            }
            sizes[c] += 1;
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
        let sq = |s: &str| s.parse::<Square>().ok().and_then(class);
        assert_eq!(sq("a1"), Some(0));
        assert_eq!(sq("b1"), Some(1));
        assert_eq!(sq("k10"), Some(1));
        assert_eq!(sq("c2"), Some(4));
        assert_eq!(sq("f6"), Some(20));
        assert_eq!(sq("e6"), Some(19));
    }
}
