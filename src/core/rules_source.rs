//! Where a game comes from when a rule set is named (`--rules`, `set_rule rules`, `hnefi
//! perft --rules`, `hnefi match --rules`): a named family, whose board size chooses among
//! its games, or an OpenTafl rules string, whose game has its own board.
//!
//! The two are told apart by a colon: no family's name has one, and every OpenTafl rules
//! string is `key:value` words (`dim:7 name:Brandub ... start:/3t3/...`), optionally after
//! the word `rules` as OpenTafl sends it to its engines.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::berserk_variant::BerserkVariant;
use super::excerpt::excerpt;
use super::geometry::BoardSize;
use super::preset::RulePreset;
use super::rules_string::{
    RulesStringError, asks_for_berserk, parse_berserk_rules_string, parse_rules_string,
};
use super::variant::{Variant, VariantError};

/// A named rule family, or the game of an OpenTafl rules string.
///
/// ```
/// use hnefi::core::geometry::BoardSize;
/// use hnefi::core::preset::RulePreset;
/// use hnefi::core::rules_source::RulesSource;
/// let family: RulesSource = "tablut".parse().unwrap();
/// assert_eq!(family, RulesSource::Family(RulePreset::Tablut));
/// assert_eq!(family.variant(BoardSize::S15).unwrap().size(), BoardSize::S15);
///
/// let text = "rules dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
/// let custom: RulesSource = text.parse().unwrap();
/// assert_eq!(custom.usual_size(), BoardSize::S7);
/// assert_eq!(custom.to_string(), text.strip_prefix("rules ").unwrap());
/// assert!(custom.variant(BoardSize::S9).is_err());
///
/// let refused = "dim:7 surf:n ber:c start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/".parse::<RulesSource>();
/// assert!(refused.unwrap_err().to_string().contains("Berserk rules on 7x7 (it plays them on 11x11 only)"));
/// assert!("dim:11 surf:n ber:m start:/11/11/11/11/11/5K5/11/11/11/11/1t9/".parse::<RulesSource>().is_ok());
/// let refused = "dim:11 surf:n ber:m linc:y start:/11/11/11/11/11/5K5/11/11/11/11/1t9/".parse::<RulesSource>();
/// assert!(refused.unwrap_err().to_string().contains("hnefi does not model linc:y beside commanders"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesSource {
    /// A named family ([`RulePreset`]): its game on each of its board sizes.
    Family(RulePreset),
    /// The game of an OpenTafl rules string, on its own board.
    Custom(CustomRules),
    /// The game of an OpenTafl rules string with Berserk's rules (commanders, knights,
    /// jumps, the berserk turn: docs/RULES.md section 17.10), played by hnefi's Berserk
    /// game and search, on 11x11.
    Berserk(BerserkRulesText),
}

/// An OpenTafl rules string of Berserk's kind hnefi models, with its game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BerserkRulesText {
    /// The string, its words joined by single spaces, without a leading `rules`.
    text: String,
    variant: BerserkVariant,
}

impl BerserkRulesText {
    /// The string, its words joined by single spaces.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Its game.
    pub fn variant(&self) -> &BerserkVariant {
        &self.variant
    }
}

impl Default for RulesSource {
    fn default() -> Self {
        RulesSource::Family(RulePreset::default())
    }
}

/// An OpenTafl rules string hnefi models, with its game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CustomRules {
    /// The string, its words joined by single spaces, without a leading `rules`.
    text: String,
    variant: Variant,
}

impl CustomRules {
    /// The string as read (words joined by single spaces, without a leading `rules`):
    /// what `set_rule rules` is told to play the same game.
    pub(crate) fn text(&self) -> &str {
        &self.text
    }

    /// Its game.
    pub(crate) fn variant(&self) -> &Variant {
        &self.variant
    }
}

impl RulesSource {
    /// The game of an OpenTafl rules string (with or without OpenTafl's leading word
    /// `rules`); an error naming the first feature hnefi does not model.
    pub(crate) fn from_rules_string(s: &str) -> Result<RulesSource, RulesStringError> {
        let text = normalize(s);
        if asks_for_berserk(&text) {
            let variant = parse_berserk_rules_string(&text)?;
            if variant.size() != BoardSize::S11 {
                return Err(RulesStringError::Unsupported(format!(
                    "Berserk rules on {0}x{0} (it plays them on 11x11 only)",
                    variant.size()
                )));
            }
            return Ok(RulesSource::Berserk(BerserkRulesText { text, variant }));
        }
        let variant = parse_rules_string(&text)?;
        Ok(RulesSource::Custom(CustomRules { text, variant }))
    }

    /// The board size a game starts on when none is given: the family's usual one, or the
    /// rules string's own.
    pub fn usual_size(&self) -> BoardSize {
        match self {
            RulesSource::Family(f) => f.usual_size(),
            RulesSource::Custom(c) => c.variant.size(),
            RulesSource::Berserk(b) => b.variant.size(),
        }
    }

    /// The Berserk game, if the rules string is of Berserk's kind.
    pub fn berserk(&self) -> Option<&BerserkVariant> {
        match self {
            RulesSource::Berserk(b) => Some(&b.variant),
            _ => None,
        }
    }

    /// True when there is a game of `size`.
    #[cfg(test)]
    pub(crate) fn has_size(&self, size: BoardSize) -> bool {
        match self {
            RulesSource::Family(f) => f.sizes().contains(&size),
            RulesSource::Custom(c) => c.variant.size() == size,
            RulesSource::Berserk(b) => b.variant.size() == size,
        }
    }
    /// The game on a board of `size`: the family's game of that size, or the rules
    /// string's game when `size` is its board. An error naming the sizes there are
    /// otherwise.
    pub fn variant(&self, size: BoardSize) -> Result<Variant, RulesSourceError> {
        match self {
            RulesSource::Family(f) => Ok(f.variant(size)?),
            RulesSource::Custom(c) if c.variant.size() == size => Ok(c.variant.clone()),
            RulesSource::Custom(c) => Err(RulesSourceError::OwnBoard {
                name: c.variant.name().to_string(),
                own: c.variant.size(),
                size,
            }),
            RulesSource::Berserk(b) => Err(RulesSourceError::Berserk(b.variant.name().to_string())),
        }
    }

    /// The family, if the game is a named one.
    pub(crate) fn family(&self) -> Option<RulePreset> {
        match self {
            RulesSource::Family(f) => Some(*f),
            RulesSource::Custom(_) | RulesSource::Berserk(_) => None,
        }
    }
}

/// The words of `s` joined by single spaces, without a leading word `rules`.
fn normalize(s: &str) -> String {
    let mut words = s.split_whitespace().peekable();
    if words.peek() == Some(&"rules") {
        words.next();
    }
    words.collect::<Vec<_>>().join(" ")
}

impl fmt::Display for RulesSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesSource::Family(family) => write!(f, "{family}"),
            RulesSource::Custom(c) => f.write_str(&c.text),
            RulesSource::Berserk(b) => f.write_str(&b.text),
        }
    }
}

/// Why a rule set cannot be named or played on a board.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RulesSourceError {
    /// Neither a family's name nor an OpenTafl rules string.
    #[error(
        "invalid rules '{0}': expected copenhagen, hnefatafl-org, fetlar, brandubh, tablut, sea-battle, tawlbwrdd or an OpenTafl rules string (dim:N ... start:...)"
    )]
    Name(String),
    /// An OpenTafl rules string hnefi cannot play.
    #[error("OpenTafl rules string: {0}")]
    String(#[from] RulesStringError),
    /// The family has no game of that size.
    #[error(transparent)]
    Variant(#[from] VariantError),
    /// A Berserk game, asked for where only an ordinary rule set is played (the
    /// ordinary game, the tools but the match runner).
    #[error(
        "the OpenTafl rules string's game ({0}) has Berserk's rules (commanders, knights, jumps, the berserk turn), which hnefi plays only in its engine (hnefi, hnefi --otep) and its match runner (hnefi match)"
    )]
    Berserk(String),
    /// A board of another size than the rules string's.
    #[error(
        "the OpenTafl rules string's game ({name}) is played on {own}x{own} only, not on {size}x{size}"
    )]
    OwnBoard {
        /// The game's name (the string's `name`).
        name: String,
        /// Its board.
        own: BoardSize,
        /// The size asked for.
        size: BoardSize,
    },
}

impl FromStr for RulesSource {
    type Err = RulesSourceError;

    /// A family's name (any case), or an OpenTafl rules string: any text with a colon.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.contains(':') {
            return Ok(RulesSource::from_rules_string(s)?);
        }
        s.trim()
            .parse::<RulePreset>()
            .map(RulesSource::Family)
            .map_err(|_| RulesSourceError::Name(excerpt(s.trim())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BRANDUB: &str = "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

    #[test]
    fn spaces_and_the_word_rules_do_not_change_the_string() {
        let spaced = format!("  rules\t{}  ", BRANDUB.replace(' ', "   "));
        let a: RulesSource = spaced.parse().unwrap();
        let b: RulesSource = BRANDUB.parse().unwrap();
        assert_eq!(a, b);
        assert_eq!(a.to_string(), BRANDUB);
        // Read again from its text, the same game.
        assert_eq!(a.to_string().parse::<RulesSource>().unwrap(), a);
    }

    #[test]
    fn names_are_families_and_other_words_are_refused_by_name() {
        assert_eq!(
            "Fetlar".parse::<RulesSource>().unwrap(),
            RulesSource::Family(RulePreset::Fetlar)
        );
        let e = "alea-evangelii".parse::<RulesSource>().unwrap_err();
        assert!(
            e.to_string().starts_with("invalid rules 'alea-evangelii'"),
            "{e}"
        );
        let e = "name:X".parse::<RulesSource>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "OpenTafl rules string: the rules string has no dim"
        );
    }

    #[test]
    fn a_rules_string_has_only_its_own_board() {
        let s: RulesSource = BRANDUB.parse().unwrap();
        assert!(s.has_size(BoardSize::S7) && !s.has_size(BoardSize::S11));
        assert_eq!(s.family(), None);
        assert_eq!(
            s.variant(BoardSize::S11).unwrap_err().to_string(),
            "the OpenTafl rules string's game (Brandub) is played on 7x7 only, not on 11x11"
        );
    }
}
