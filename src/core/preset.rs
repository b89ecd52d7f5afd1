//! Named rule presets: a whole [`RuleSet`] under one name, so that a referee and a
//! searcher can follow the same rules as a given server (`--rules hnefatafl-org`).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::corners::Corners;
use super::encirclement_mode::EncirclementMode;
use super::excerpt::excerpt;
use super::geometry::BoardSize;
use super::king::{Escape, Hostility, KingArmed, KingCapture};
use super::referee::Referee;
use super::repetition::RepetitionMode;
use super::role::Role;
use super::rules::RuleSet;
use super::shield_walls::ShieldWalls;
use super::variant::{Variant, VariantError};

/// The plies after which the hnefatafl.org server draws a game.
///
/// The server (crate `hnefatafl-copenhagen` 6.4.1, `board.rs`) declares a draw when a move
/// that wins nothing is made with its turn number over 140 (`turn_number > MAX_TURNS`).
/// The turn number is the length of the game's play list before the move, and a server
/// game's list starts with one empty entry (`ServerGame::new`), so the 141st ply draws
/// (seen in a game against the real server). A turn there is one ply, not a move pair.
pub(crate) const HNEFATAFL_ORG_MOVE_LIMIT: u32 = 141;

/// A named set of rules.
///
/// ```
/// use hnefi::core::preset::RulePreset;
/// use hnefi::core::repetition::RepetitionMode;
///
/// let p: RulePreset = "hnefatafl-org".parse().unwrap();
/// assert_eq!(p.rules().repetition, RepetitionMode::DefenderAnyRepeatIllegal);
/// assert_eq!(p.rules().move_limit, Some(141));
/// assert_eq!(p.rules().referee, hnefi::core::referee::Referee::HnefataflOrg);
/// assert_eq!(p.to_string(), "hnefatafl-org");
/// assert!("fetlar".parse::<RulePreset>().unwrap().rules().edge_fort == false);
/// assert!("tawlbwrdd".parse::<RulePreset>().is_ok());
/// assert!("alea-evangelii".parse::<RulePreset>().is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub enum RulePreset {
    /// hnefi's default rules ([`RuleSet::default`]).
    #[default]
    Copenhagen,
    /// The rules of the hnefatafl.org server (`hnefatafl-copenhagen` 6.4.1): a defender
    /// move may never recreate an earlier board, encirclement is judged on the king's
    /// region (which must hold every defender), the 141st ply draws, and the server's
    /// referee ([`Referee::HnefataflOrg`]) judges every move: its own edge fort test and
    /// encirclement after moves of either side, then the move limit, then its early
    /// adjudication (docs/RULES.md section 13).
    HnefataflOrg,
    /// Fetlar Hnefatafl (docs/RULES.md, "The `fetlar` rule set"): Copenhagen's board,
    /// moves, custodial captures and king, without shield walls, edge forts or
    /// encirclement; the third occurrence of a position draws.
    Fetlar,
    /// Brandubh on 7x7 as OpenTafl plays it (docs/RULES.md section 17): a weak king, who
    /// escapes to a corner; corners hostile to all, the throne to nobody; no encirclement.
    Brandubh,
    /// Tablut as OpenTafl plays it on 9x9 (with Linnaean capture) and 15x15: the king
    /// escapes to the edge, is strong on and beside the throne and weak elsewhere, and
    /// never returns to the throne; no corners.
    Tablut,
    /// Sea Battle as OpenTafl plays it on 9x9 and 13x13 (Parlett's): a strong, unarmed
    /// king who escapes to the edge; no corners, no throne.
    SeaBattle,
    /// Tawlbwrdd on 11x11 as OpenTafl plays it: a weak king who escapes to the edge; no
    /// corners, no throne.
    Tawlbwrdd,
}

impl RulePreset {
    /// Every preset.
    pub const ALL: [RulePreset; 7] = [
        RulePreset::Copenhagen,
        RulePreset::HnefataflOrg,
        RulePreset::Fetlar,
        RulePreset::Brandubh,
        RulePreset::Tablut,
        RulePreset::SeaBattle,
        RulePreset::Tawlbwrdd,
    ];

    /// The name on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            RulePreset::Copenhagen => "copenhagen",
            RulePreset::HnefataflOrg => "hnefatafl-org",
            RulePreset::Fetlar => "fetlar",
            RulePreset::Brandubh => "brandubh",
            RulePreset::Tablut => "tablut",
            RulePreset::SeaBattle => "sea-battle",
            RulePreset::Tawlbwrdd => "tawlbwrdd",
        }
    }

    /// The board sizes the family plays, its usual one first.
    pub const fn sizes(self) -> &'static [BoardSize] {
        match self {
            RulePreset::Copenhagen | RulePreset::HnefataflOrg => {
                &[BoardSize::S11, BoardSize::S7, BoardSize::S13]
            }
            RulePreset::Fetlar | RulePreset::Tawlbwrdd => &[BoardSize::S11],
            RulePreset::Brandubh => &[BoardSize::S7],
            RulePreset::Tablut => &[BoardSize::S9, BoardSize::S15],
            RulePreset::SeaBattle => &[BoardSize::S9, BoardSize::S13],
        }
    }

    /// The family's usual board size (its game when no size is given).
    pub(crate) const fn usual_size(self) -> BoardSize {
        match self {
            RulePreset::Copenhagen
            | RulePreset::HnefataflOrg
            | RulePreset::Fetlar
            | RulePreset::Tawlbwrdd => BoardSize::S11,
            RulePreset::Brandubh => BoardSize::S7,
            RulePreset::Tablut | RulePreset::SeaBattle => BoardSize::S9,
        }
    }

    /// The family's game on a board of `size`: under `copenhagen`, 13x13 is Copenhagen
    /// on the server's 13x13 board and 7x7 the server's 7x7 game (Copenhagen has none);
    /// under `hnefatafl-org`, the server's game of that size (docs/RULES.md section 16).
    pub fn variant(self, size: BoardSize) -> Result<Variant, VariantError> {
        if !self.sizes().contains(&size) {
            let sizes: Vec<String> = self.sizes().iter().map(|s| format!("{s}x{s}")).collect();
            return Err(VariantError::NoSuchSize {
                family: self.name(),
                size,
                sizes: sizes.join(", "),
            });
        }
        let start = match (self, size) {
            (RulePreset::Tawlbwrdd, _) => Some(TAWLBWRDD_11),
            (RulePreset::SeaBattle, BoardSize::S13) => Some(SEA_BATTLE_13),
            _ => None,
        };
        let (name, rules, first) = match (self, size) {
            (RulePreset::Copenhagen | RulePreset::HnefataflOrg, BoardSize::S7) => (
                RulePreset::HnefataflOrg,
                hnefatafl_org_small(RulePreset::HnefataflOrg.rules()),
                Role::Defender,
            ),
            (RulePreset::HnefataflOrg, BoardSize::S13) => (
                self,
                RuleSet {
                    first_position_counts: false,
                    ..self.rules()
                },
                Role::Attacker,
            ),
            (RulePreset::Tablut, BoardSize::S15) => (
                self,
                RuleSet {
                    linnaean: false,
                    ..self.rules()
                },
                Role::Attacker,
            ),
            _ => (self, self.rules(), Role::Attacker),
        };
        Variant::new(name.name(), size, start.map(str::to_string), first, rules)
    }

    /// The rule set.
    pub fn rules(self) -> RuleSet {
        match self {
            RulePreset::Copenhagen => RuleSet::default(),
            RulePreset::HnefataflOrg => RuleSet {
                repetition: RepetitionMode::DefenderAnyRepeatIllegal,
                encirclement: EncirclementMode::SingleRing,
                move_limit: Some(HNEFATAFL_ORG_MOVE_LIMIT),
                referee: Referee::HnefataflOrg,
                ..RuleSet::COPENHAGEN
            },
            RulePreset::Fetlar => RuleSet {
                repetition: RepetitionMode::ThirdOccurrenceDraws,
                shield_walls: ShieldWalls::Off,
                edge_fort: false,
                encirclement_wins: false,
                ..RuleSet::COPENHAGEN
            },
            RulePreset::Brandubh => RuleSet {
                king_capture: KingCapture::Weak,
                throne_hostility: Hostility::NONE,
                occupied_throne_hostile: false,
                encirclement_wins: false,
                ..OPENTAFL
            },
            RulePreset::Tablut => RuleSet {
                escape: Escape::Edges,
                corners: Corners::Off,
                king_returns: false,
                occupied_throne_hostile: false,
                king_capture: KingCapture::StrongNearThrone,
                linnaean: true,
                ..OPENTAFL
            },
            RulePreset::SeaBattle => RuleSet {
                escape: Escape::Edges,
                corners: Corners::Off,
                throne: false,
                king_armed: KingArmed::No,
                ..OPENTAFL
            },
            RulePreset::Tawlbwrdd => RuleSet {
                escape: Escape::Edges,
                corners: Corners::Off,
                throne: false,
                king_capture: KingCapture::Weak,
                ..OPENTAFL
            },
        }
    }
}

/// OpenTafl's defaults for a rules string (docs/RULES.md section 17.2): its referee, the
/// third occurrence of a position draws, encirclement (`surf:y`), a strong armed king
/// escaping to a corner, corners hostile to all, the throne hostile to all when empty and
/// to attackers when the king is on it; no shield walls, no edge fort, no move limit.
const OPENTAFL: RuleSet = RuleSet {
    repetition: RepetitionMode::ThirdOccurrenceDraws,
    encirclement: EncirclementMode::MultiPocket,
    move_limit: None,
    referee: Referee::OpenTafl,
    shield_walls: ShieldWalls::Off,
    edge_fort: false,
    encirclement_wins: true,
    ..RuleSet::COPENHAGEN
};

/// OpenTafl's Tawlbwrdd start (its built-in variant's `start:`).
const TAWLBWRDD_11: &str =
    "/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/";

/// OpenTafl's 13x13 Sea Battle (Parlett) start (its `unbuilt/external-rules.conf`).
const SEA_BATTLE_13: &str = "/4ttttt4/5t1t5/6t6/6T6/t3T3T3t/tt3TTT3tt/t1tT1TKT1Tt1t/tt3TTT3tt/t3T3T3t/6T6/6t6/5t1t5/4ttttt4/";

/// The hnefatafl.org server's 7x7 game from its 11x11 rules (docs/RULES.md section 16):
/// the king is captured by two attackers on the line of the arriving one (a corner counts
/// as one, the empty throne does not), by four on the throne; no edge fort; the start
/// position is not an earlier board for the repetition rule.
fn hnefatafl_org_small(rules: RuleSet) -> RuleSet {
    RuleSet {
        king_capture: KingCapture::StrongOnThrone,
        throne_hostility: Hostility::SOLDIERS,
        edge_fort: false,
        first_position_counts: false,
        ..rules
    }
}

impl fmt::Display for RulePreset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown preset name.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error(
    "invalid rules '{0}': expected copenhagen, hnefatafl-org, fetlar, brandubh, tablut, sea-battle or tawlbwrdd"
)]
pub struct RulePresetError(pub String);

impl FromStr for RulePreset {
    type Err = RulePresetError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RulePreset::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| RulePresetError(excerpt(s)))
    }
}
