//! Attacker forts (OpenTafl's `afor`; Foteviken Tablut's four T-shaped citadels, where the
//! attackers start): squares only the attackers' soldiers standing on one may move onto
//! or through. A soldier that leaves them may not come back, and no defender or king may
//! enter them (docs/RULES.md section 17.3). Data only; the move generator applies them.

use super::bitboard::BitboardOf;
use super::geometry::Geometry;
use super::square::SquareOf;

/// The words of [`AttackerForts`]: enough for the 361 squares of the largest board.
const WORDS: usize = 6;

/// The fort squares of a rule set, by square index (`rank * size + file`), apart from the
/// board's size so that a [`RuleSet`](super::rules::RuleSet) stays one plain value.
///
/// ```
/// use hnefi::core::attacker_forts::AttackerForts;
/// use hnefi::core::bitboard::BitboardOf;
/// use hnefi::core::geometry::S9;
/// use hnefi::core::square::SquareOf;
/// let a4: SquareOf<S9> = "a4".parse().unwrap();
/// let forts = AttackerForts::from_squares(BitboardOf::from_square(a4));
/// assert!(forts.squares::<S9>().contains(a4) && !forts.is_none());
/// assert!(AttackerForts::NONE.squares::<S9>().is_empty());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub struct AttackerForts {
    /// One bit per square index: every index of hnefi's boards (361 squares on 19x19) is
    /// below 384.
    bits: [u64; WORDS],
    /// True when some bit is set: the move generator asks on every move, and one flag
    /// answers faster than six words.
    any: bool,
}

impl AttackerForts {
    /// No forts: every rule set but Foteviken's.
    pub const NONE: AttackerForts = AttackerForts {
        bits: [0; WORDS],
        any: false,
    };

    /// The forts on `squares`.
    pub fn from_squares<G: Geometry>(squares: BitboardOf<G>) -> AttackerForts {
        let mut bits = [0u64; WORDS];
        for sq in squares {
            let i = sq.index();
            if let Some(word) = bits.get_mut(i / 64) {
                *word |= 1 << (i % 64);
            }
        }
        let any = bits.iter().any(|&w| w != 0);
        AttackerForts { bits, any }
    }

    /// True when there are none (the move generator's fast paths).
    #[inline(always)]
    pub fn is_none(&self) -> bool {
        !self.any
    }

    /// The fort squares on a board of geometry `G`.
    #[inline]
    pub fn squares<G: Geometry>(&self) -> BitboardOf<G> {
        let mut out = BitboardOf::EMPTY;
        for (w, &word) in self.bits.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                let i = w * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                if let Some(sq) = SquareOf::<G>::new(i) {
                    out.insert(sq);
                }
            }
        }
        out
    }
}
