//! A 256-bit integer for the bitboards of the 13x13 and 15x15 boards (169 and 225 squares),
//! as two `u128` halves: only the operations a bitboard needs.

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
}
