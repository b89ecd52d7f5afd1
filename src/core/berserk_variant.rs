//! A Berserk game as a rules string names it (OpenTafl's Berserk 11x11 and strings like
//! it, docs/RULES.md section 17.10): its name, board size, rules, start position with its
//! commanders and knights, and first side. [`parse_berserk_rules_string`](super::rules_string::parse_berserk_rules_string)
//! makes one.

use super::berserk_position::{BerserkPositionOf, BerserkRules};
use super::bitboard::BitboardOf;
use super::board::BoardOf;
use super::geometry::{BoardSize, Geometry};
use super::notation::{PositionError, parse_opentafl_with};
use super::role::Role;
use super::special_pieces::SpecialPiecesOf;
use super::square::SquareOf;
use super::variant::VariantError;

/// A Berserk game's definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BerserkVariant {
    pub(crate) name: String,
    pub(crate) size: BoardSize,
    pub(crate) rules: BerserkRules,
    pub(crate) start: String,
    pub(crate) first: Role,
}

impl BerserkVariant {
    /// The variant's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The board size.
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The rules.
    pub fn rules(&self) -> &BerserkRules {
        &self.rules
    }

    /// The side that moves first.
    pub fn first(&self) -> Role {
        self.first
    }

    /// The start position in OpenTafl's notation (rank 1 first; `c`/`C` commanders,
    /// `n`/`N` knights).
    pub fn start(&self) -> &str {
        &self.start
    }

    /// The same game from another start position (OpenTafl's notation), as OpenTafl
    /// plays a rules string with that `start`: which sides have commanders or knights is
    /// read from it.
    pub fn with_start(&self, start: &str) -> BerserkVariant {
        let mut v = self.clone();
        v.rules.pieces.attackers_special = start.contains(['c', 'n']);
        v.rules.pieces.defenders_special = start.contains(['C', 'N']);
        v.start = start.to_string();
        v
    }

    /// The start position on the board `G`, which must be the variant's size.
    pub fn position<G: Geometry>(&self) -> Result<BerserkPositionOf<G>, VariantError> {
        if G::SIZE != self.size.files() {
            return Err(VariantError::SizeMismatch {
                variant: self.size,
                board: G::SIZE,
            });
        }
        let (board, specials) = parse_start::<G>(&self.start, self.rules.rules.restricted())?;
        Ok(BerserkPositionOf::new(board, specials, self.first))
    }
}

/// Reads an OpenTafl position with commanders (`c`, `C`), knights (`n`, `N`), mercenaries
/// (`m`, `M`) and guards (`g`, `G`): the board, on which they are soldiers of their side,
/// and their sets, no piece having moved yet (the king among them).
pub fn parse_start<G: Geometry>(
    s: &str,
    restricted: BitboardOf<G>,
) -> Result<(BoardOf<G>, SpecialPiecesOf<G>), PositionError> {
    let plain: String = s
        .chars()
        .map(|c| match c {
            'c' | 'n' | 'm' | 'g' => 't',
            'C' | 'N' | 'M' | 'G' => 'T',
            other => other,
        })
        .collect();
    let board = parse_opentafl_with::<G>(&plain, restricted)?;
    // The string read, so its rows are the board's; walk them again for the letters.
    let mut commanders = BitboardOf::EMPTY;
    let mut knights = BitboardOf::EMPTY;
    let mut mercenaries = BitboardOf::EMPTY;
    let mut guards = BitboardOf::EMPTY;
    let trimmed = s.trim();
    let inner = trimmed.strip_prefix('/').unwrap_or(trimmed);
    let inner = inner.strip_suffix('/').unwrap_or(inner);
    for (rank, row) in inner.split('/').enumerate() {
        let mut file: u32 = 0;
        let mut run: u32 = 0;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                run = run.saturating_mul(10).saturating_add(d);
                continue;
            }
            file = file.saturating_add(run);
            run = 0;
            let sq = u8::try_from(file)
                .ok()
                .zip(u8::try_from(rank).ok())
                .and_then(|(f, r)| SquareOf::<G>::from_coords(f, r));
            if let Some(sq) = sq {
                match c {
                    'c' | 'C' => commanders.insert(sq),
                    'n' | 'N' => knights.insert(sq),
                    'm' | 'M' => mercenaries.insert(sq),
                    'g' | 'G' => guards.insert(sq),
                    _ => {}
                }
            }
            file = file.saturating_add(1);
        }
    }
    let mut specials =
        SpecialPiecesOf::new(commanders, knights).with_mercenaries_and_guards(mercenaries, guards);
    if s.contains('K') {
        specials = specials.with_fresh(board.king());
    }
    Ok((board, specials))
}
