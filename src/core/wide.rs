//! The wide integers of the bitboards of the large boards, built from `u128` words with
//! only the operations a bitboard needs: [`U256`] for 13x13 and 15x15 (169 and 225
//! squares), [`U384`] for 17x17 and 19x19 (289 and 361 squares).

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

/// 256 bits: `lo` holds bits 0..128, `hi` bits 128..256.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct U256 {
    lo: u128,
    hi: u128,
}

impl U256 {
    /// No bit set.
    pub(crate) const ZERO: U256 = U256 { lo: 0, hi: 0 };

    /// The value with bit `i` set (`i < 256`; a larger `i` gives zero).
    pub(crate) const fn bit(i: usize) -> U256 {
        if i < 128 {
            U256 { lo: 1 << i, hi: 0 }
        } else if i < 256 {
            U256 {
                lo: 0,
                hi: 1 << (i - 128),
            }
        } else {
            U256::ZERO
        }
    }

    /// `a | b`, for const evaluation.
    pub(crate) const fn or(a: U256, b: U256) -> U256 {
        U256 {
            lo: a.lo | b.lo,
            hi: a.hi | b.hi,
        }
    }

    /// The number of bits set.
    #[inline(always)]
    pub(crate) const fn count_ones(self) -> u32 {
        self.lo.count_ones() + self.hi.count_ones()
    }

    /// The index of the lowest bit set, 256 for zero.
    #[inline(always)]
    pub(crate) const fn trailing_zeros(self) -> u32 {
        if self.lo != 0 {
            self.lo.trailing_zeros()
        } else {
            128 + self.hi.trailing_zeros()
        }
    }

    /// The number of clear bits above the highest set one, 256 for zero.
    #[inline(always)]
    pub(crate) const fn leading_zeros(self) -> u32 {
        if self.hi != 0 {
            self.hi.leading_zeros()
        } else {
            128 + self.lo.leading_zeros()
        }
    }

    /// `self - rhs`, wrapping around at 256 bits.
    #[inline(always)]
    pub(crate) const fn wrapping_sub(self, rhs: U256) -> U256 {
        let (lo, borrow) = self.lo.overflowing_sub(rhs.lo);
        U256 {
            lo,
            hi: self.hi.wrapping_sub(rhs.hi).wrapping_sub(borrow as u128),
        }
    }

    /// The value with its lowest set bit cleared.
    #[inline(always)]
    pub(crate) const fn clear_lowest(self) -> U256 {
        if self.lo != 0 {
            U256 {
                lo: self.lo & (self.lo - 1),
                hi: self.hi,
            }
        } else {
            U256 {
                lo: 0,
                hi: self.hi & self.hi.wrapping_sub(1),
            }
        }
    }
}

impl Shl<u32> for U256 {
    type Output = U256;
    /// Shifts towards the high bits; bits shifted past 256 are lost (`n >= 256` gives zero).
    #[inline(always)]
    fn shl(self, n: u32) -> U256 {
        match n {
            0 => self,
            1..128 => U256 {
                lo: self.lo << n,
                hi: (self.hi << n) | (self.lo >> (128 - n)),
            },
            128..256 => U256 {
                lo: 0,
                hi: self.lo << (n - 128),
            },
            _ => U256::ZERO,
        }
    }
}

impl Shr<u32> for U256 {
    type Output = U256;
    /// Shifts towards the low bits (`n >= 256` gives zero).
    #[inline(always)]
    fn shr(self, n: u32) -> U256 {
        match n {
            0 => self,
            1..128 => U256 {
                lo: (self.lo >> n) | (self.hi << (128 - n)),
                hi: self.hi >> n,
            },
            128..256 => U256 {
                lo: self.hi >> (n - 128),
                hi: 0,
            },
            _ => U256::ZERO,
        }
    }
}

impl Not for U256 {
    type Output = U256;
    #[inline(always)]
    fn not(self) -> U256 {
        U256 {
            lo: !self.lo,
            hi: !self.hi,
        }
    }
}

macro_rules! wide_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for U256 {
            type Output = U256;
            #[inline(always)]
            fn $f(self, rhs: U256) -> U256 {
                U256 {
                    lo: self.lo $op rhs.lo,
                    hi: self.hi $op rhs.hi,
                }
            }
        }
        impl $tra for U256 {
            #[inline(always)]
            fn $fa(&mut self, rhs: U256) {
                *self = *self $op rhs;
            }
        }
    };
}
wide_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
wide_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
wide_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

/// 384 bits as three `u128` words, the lowest first: bit `i` is bit `i % 128` of word
/// `i / 128`. Three words rather than four (a `U512`), as 19x19 needs only 361 bits and
/// every operation costs a word more.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct U384 {
    w: [u128; 3],
}

impl U384 {
    /// No bit set.
    pub(crate) const ZERO: U384 = U384 { w: [0; 3] };

    /// The value with bit `i` set (`i < 384`; a larger `i` gives zero).
    pub(crate) const fn bit(i: usize) -> U384 {
        let mut w = [0u128; 3];
        if i < 384 {
            w[i / 128] = 1 << (i % 128);
        }
        U384 { w }
    }

    /// `a | b`, for const evaluation.
    pub(crate) const fn or(a: U384, b: U384) -> U384 {
        U384 {
            w: [a.w[0] | b.w[0], a.w[1] | b.w[1], a.w[2] | b.w[2]],
        }
    }

    /// The number of bits set.
    #[inline(always)]
    pub(crate) const fn count_ones(self) -> u32 {
        self.w[0].count_ones() + self.w[1].count_ones() + self.w[2].count_ones()
    }

    /// The index of the lowest bit set, 384 for zero.
    #[inline(always)]
    pub(crate) const fn trailing_zeros(self) -> u32 {
        if self.w[0] != 0 {
            self.w[0].trailing_zeros()
        } else if self.w[1] != 0 {
            128 + self.w[1].trailing_zeros()
        } else {
            256 + self.w[2].trailing_zeros()
        }
    }

    /// The number of clear bits above the highest set one, 384 for zero.
    #[inline(always)]
    pub(crate) const fn leading_zeros(self) -> u32 {
        if self.w[2] != 0 {
            self.w[2].leading_zeros()
        } else if self.w[1] != 0 {
            128 + self.w[1].leading_zeros()
        } else {
            256 + self.w[0].leading_zeros()
        }
    }

    /// `self - rhs`, wrapping around at 384 bits.
    #[inline(always)]
    pub(crate) const fn wrapping_sub(self, rhs: U384) -> U384 {
        let (w0, b0) = self.w[0].overflowing_sub(rhs.w[0]);
        let (w1, b1) = self.w[1].overflowing_sub(rhs.w[1]);
        let (w1, b1b) = w1.overflowing_sub(b0 as u128);
        let w2 = self.w[2]
            .wrapping_sub(rhs.w[2])
            .wrapping_sub((b1 | b1b) as u128);
        U384 { w: [w0, w1, w2] }
    }

    /// The value with its lowest set bit cleared.
    #[inline(always)]
    pub(crate) const fn clear_lowest(self) -> U384 {
        let [w0, w1, w2] = self.w;
        if w0 != 0 {
            U384 {
                w: [w0 & (w0 - 1), w1, w2],
            }
        } else if w1 != 0 {
            U384 {
                w: [0, w1 & (w1 - 1), w2],
            }
        } else {
            U384 {
                w: [0, 0, w2 & w2.wrapping_sub(1)],
            }
        }
    }
}

/// Word `i` of `w` shifted up by `r` bits (`0 < r < 128`), with the bits coming up from
/// word `i - 1`.
#[inline(always)]
const fn up(hi: u128, lo: u128, r: u32) -> u128 {
    (hi << r) | (lo >> (128 - r))
}

impl Shl<u32> for U384 {
    type Output = U384;
    /// Shifts towards the high bits; bits shifted past 384 are lost (`n >= 384` gives zero).
    /// The bitboards shift by constants, so the branches fold away.
    #[inline(always)]
    fn shl(self, n: u32) -> U384 {
        let [w0, w1, w2] = self.w;
        let r = n % 128;
        let w = match (n / 128, r) {
            (0, 0) => [w0, w1, w2],
            (0, _) => [w0 << r, up(w1, w0, r), up(w2, w1, r)],
            (1, 0) => [0, w0, w1],
            (1, _) => [0, w0 << r, up(w1, w0, r)],
            (2, _) => [0, 0, w0 << r],
            _ => [0; 3],
        };
        U384 { w }
    }
}

impl Shr<u32> for U384 {
    type Output = U384;
    /// Shifts towards the low bits (`n >= 384` gives zero).
    #[inline(always)]
    fn shr(self, n: u32) -> U384 {
        let [w0, w1, w2] = self.w;
        let r = n % 128;
        // Word i of the result is word i + q shifted down, with the bits of word i + q + 1.
        let down = |lo: u128, hi: u128| (lo >> r) | (hi << (128 - r));
        let w = match (n / 128, r) {
            (0, 0) => [w0, w1, w2],
            (0, _) => [down(w0, w1), down(w1, w2), w2 >> r],
            (1, 0) => [w1, w2, 0],
            (1, _) => [down(w1, w2), w2 >> r, 0],
            (2, _) => [w2 >> r, 0, 0],
            _ => [0; 3],
        };
        U384 { w }
    }
}

impl Not for U384 {
    type Output = U384;
    #[inline(always)]
    fn not(self) -> U384 {
        U384 {
            w: [!self.w[0], !self.w[1], !self.w[2]],
        }
    }
}

macro_rules! wider_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for U384 {
            type Output = U384;
            #[inline(always)]
            fn $f(self, rhs: U384) -> U384 {
                U384 {
                    w: [
                        self.w[0] $op rhs.w[0],
                        self.w[1] $op rhs.w[1],
                        self.w[2] $op rhs.w[2],
                    ],
                }
            }
        }
        impl $tra for U384 {
            #[inline(always)]
            fn $fa(&mut self, rhs: U384) {
                *self = *self $op rhs;
            }
        }
    };
}
wider_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
wider_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
wider_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_cross_the_halves() {
        let b = U256::bit(127);
        assert_eq!(b << 1, U256::bit(128));
        assert_eq!(U256::bit(128) >> 1, b);
        assert_eq!(U256::bit(3) << 200, U256::bit(203));
        assert_eq!(U256::bit(203) >> 200, U256::bit(3));
        assert_eq!(U256::bit(255) << 1, U256::ZERO);
        assert_eq!(U256::bit(0) >> 1, U256::ZERO);
        assert_eq!(U256::bit(5) << 256, U256::ZERO);
    }

    #[test]
    fn scans_and_counts() {
        let x = U256::or(U256::bit(7), U256::bit(140));
        assert_eq!(x.count_ones(), 2);
        assert_eq!(x.trailing_zeros(), 7);
        assert_eq!(x.leading_zeros(), 255 - 140);
        assert_eq!(x.clear_lowest(), U256::bit(140));
        assert_eq!(U256::bit(140).clear_lowest(), U256::ZERO);
        assert_eq!(U256::ZERO.trailing_zeros(), 256);
        assert_eq!(U256::ZERO.leading_zeros(), 256);
    }

    /// A 384-bit value as its bits, for the tests: `bits(x)[i]` is bit `i`.
    fn bits(x: U384) -> Vec<bool> {
        (0..384).map(|i| x & U384::bit(i) != U384::ZERO).collect()
    }

    #[test]
    fn u384_shifts_move_every_bit_and_lose_the_ones_past_the_ends() {
        // Two bits in each word, near the words' ends, where carries cross.
        let x = [0, 1, 126, 127, 128, 200, 255, 256, 300, 383]
            .into_iter()
            .fold(U384::ZERO, |a, i| U384::or(a, U384::bit(i)));
        for n in [
            0, 1, 2, 17, 19, 38, 76, 127, 128, 129, 152, 255, 256, 257, 304, 383, 384, 500,
        ] {
            let up = bits(x << n);
            let down = bits(x >> n);
            let had = bits(x);
            for i in 0..384usize {
                let from_up = i.checked_sub(n as usize).is_some_and(|j| had[j]);
                let from_down = had.get(i + n as usize).copied().unwrap_or(false);
                assert_eq!(up[i], from_up, "<< {n}, bit {i}");
                assert_eq!(down[i], from_down, ">> {n}, bit {i}");
            }
        }
    }

    #[test]
    fn u384_scans_counts_and_subtracts_across_words() {
        let x = U384::or(U384::bit(7), U384::or(U384::bit(140), U384::bit(300)));
        assert_eq!(x.count_ones(), 3);
        assert_eq!(x.trailing_zeros(), 7);
        assert_eq!(x.leading_zeros(), 383 - 300);
        assert_eq!(x.clear_lowest(), U384::or(U384::bit(140), U384::bit(300)));
        assert_eq!(U384::bit(300).clear_lowest(), U384::ZERO);
        assert_eq!(U384::ZERO.trailing_zeros(), 384);
        assert_eq!(U384::ZERO.leading_zeros(), 384);
        assert_eq!(U384::bit(256).wrapping_sub(U384::bit(0)).count_ones(), 256);
        assert_eq!(U384::bit(128).wrapping_sub(U384::bit(0)).count_ones(), 128);
        assert_eq!(U384::ZERO.wrapping_sub(U384::bit(0)), !U384::ZERO);
        assert_eq!(U384::bit(384), U384::ZERO);
    }
}
