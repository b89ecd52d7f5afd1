//! A game as one value: its board size, start position, first mover and [`RuleSet`], and
//! the games each named rule family plays on each board size (docs/RULES.md sections 13 to
//! 17).

use std::fmt;

use thiserror::Error;

use super::board::BoardOf;
use super::geometry::{BoardSize, Geometry};
use super::notation::{PositionError, parse_opentafl_with};
use super::position::PositionOf;
use super::role::Role;
use super::rules::RuleSet;

/// A game hnefi can play: everything a rule set describes.
///
/// ```
/// use hnefi::core::geometry::{BoardSize, S7};
/// use hnefi::core::preset::RulePreset;
/// use hnefi::core::role::Role;
/// let v = RulePreset::HnefataflOrg.variant(BoardSize::S7).unwrap();
/// assert_eq!(v.first(), Role::Defender);
/// assert_eq!(v.start_position::<S7>().unwrap().to_move(), Role::Defender);
/// assert!(RulePreset::Fetlar.variant(BoardSize::S13).is_err());
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Variant {
    name: String,
    size: BoardSize,
    /// An OpenTafl position, or `None` for the size's usual start
    /// ([`start_rows`](super::start::start_rows)).
    start: Option<String>,
    first: Role,
    rules: RuleSet,
}

impl Variant {
    /// A variant from its parts; `start` is an OpenTafl position of `size`, or `None` for
    /// the size's usual start position. Errors when `start` is not a valid position of
    /// that size.
    pub(crate) fn new(
        name: impl Into<String>,
        size: BoardSize,
        start: Option<String>,
        first: Role,
        rules: RuleSet,
    ) -> Result<Variant, VariantError> {
        let variant = Variant {
            name: name.into(),
            size,
            start,
            first,
            rules,
        };
        // Parse once now, so that a variant that exists has a valid start.
        crate::with_size!(size, G => variant.start_board::<G>().map(|_| ()))?;
        Ok(variant)
    }

    /// The name (a preset's name, or the `name` of an OpenTafl rules string).
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// The board size.
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The side that moves first.
    pub fn first(&self) -> Role {
        self.first
    }

    /// The rule set.
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// The start board on geometry `G`; an error unless `G` is the variant's size.
    pub fn start_board<G: Geometry>(&self) -> Result<BoardOf<G>, VariantError> {
        if G::SIZE != self.size.files() {
            return Err(VariantError::SizeMismatch {
                variant: self.size,
                board: G::SIZE,
            });
        }
        match &self.start {
            None => Ok(BoardOf::start()),
            Some(s) => Ok(parse_opentafl_with::<G>(s, self.rules.restricted())?),
        }
    }

    /// The start position on geometry `G`, the first mover to move.
    pub fn start_position<G: Geometry>(&self) -> Result<PositionOf<G>, VariantError> {
        Ok(PositionOf::new(self.start_board::<G>()?, self.first))
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}x{}", self.name, self.size, self.size)
    }
}

/// Why a variant cannot be made or used.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum VariantError {
    /// The rule family has no game on that board.
    #[error("the {family} rules have no {size}x{size} game: they play on {sizes}")]
    NoSuchSize {
        /// The family's name (a [`RulePreset`](super::preset::RulePreset)'s, named here
        /// rather than held so that a variant needs no preset).
        family: &'static str,
        /// The size asked for.
        size: BoardSize,
        /// The sizes it has, as a list for the message.
        sizes: String,
    },
    /// A board of another size than the variant's.
    #[error("the variant is played on {variant}x{variant}, not on {board}x{board}")]
    SizeMismatch {
        /// The variant's size.
        variant: BoardSize,
        /// The board's files.
        board: u8,
    },
    /// The start position does not parse.
    #[error("bad start position: {0}")]
    Start(#[from] PositionError),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::{S7, S11, S13};
    use crate::core::preset::RulePreset;

    #[test]
    fn every_preset_size_has_a_valid_start() {
        for family in RulePreset::ALL {
            for &size in family.sizes() {
                let v = family.variant(size).expect("a listed size");
                assert_eq!(v.size(), size);
                crate::with_size!(size, G => {
                    let pos = v.start_position::<G>().expect("a valid start");
                    assert_eq!(pos.to_move(), v.first());
                });
            }
        }
    }

    #[test]
    fn a_size_the_family_lacks_names_the_sizes_it_has() {
        let e = RulePreset::Fetlar.variant(BoardSize::S7).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the fetlar rules have no 7x7 game: they play on 11x11"
        );
    }

    #[test]
    fn a_board_of_another_size_is_refused() {
        let v = RulePreset::Copenhagen.variant(BoardSize::S13).unwrap();
        assert!(v.start_board::<S13>().is_ok());
        assert!(matches!(
            v.start_board::<S11>(),
            Err(VariantError::SizeMismatch { board: 11, .. })
        ));
        assert!(v.start_board::<S7>().is_err());
    }
}
