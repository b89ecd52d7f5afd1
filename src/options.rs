//! The engine's options, declared once (name, kind, default, range, help), as Stockfish's
//! `OptionsMap` is: `set_option` in both dialects, `help set_option`, the command line
//! (`hnefi --threads N`), OTEP and `hnefi bot` all read this table, so that an option has
//! one range and one message everywhere. The one reader of `MIN+INC` time controls is here
//! too, with the bounds of a time that every tool shares.

use std::time::Duration;

use thiserror::Error;

use crate::search;
use crate::time_control::Fischer;

/// The longest time accepted for one move or one search, in milliseconds (one week).
pub(crate) const MAX_MOVETIME_MS: u64 = 7 * 24 * 3600 * 1000;
/// The most time accepted on a clock, in milliseconds (one year).
pub(crate) const MAX_CLOCK_MS: u64 = 365 * 24 * 3600 * 1000;
/// The longest Fischer base time accepted, in minutes (one year).
pub(crate) const MAX_MINUTES: f64 = 525_600.0;
/// The largest Fischer increment accepted, in seconds (one day).
pub(crate) const MAX_INCREMENT_SECS: f64 = 86_400.0;

/// What values an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A whole number from `min` to `max`; `zero` says what 0 means, when it means
    /// something other than a number (no limit).
    Whole {
        /// The smallest value.
        min: u64,
        /// The largest value.
        max: u64,
        /// The value when the option is not set.
        default: u64,
        /// What 0 means, if anything special.
        zero: Option<&'static str>,
    },
    /// `true` or `false`.
    Switch {
        /// The value when the option is not set.
        default: bool,
    },
    /// A file's path, or `none`.
    File {
        /// What the option is when not set.
        default: &'static str,
    },
    /// One of a few names.
    Choice {
        /// The names accepted.
        names: &'static [&'static str],
        /// The value when the option is not set.
        default: &'static str,
    },
}

/// One option of the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineOption {
    /// Its name, as `set_option` takes it (the command line's flag is `--` and the name
    /// with `-` for `_`).
    pub name: &'static str,
    /// Its values.
    pub kind: Kind,
    /// What it does.
    pub(crate) help: &'static str,
}

/// A value of an option, as read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// A whole number.
    Whole(u64),
    /// A switch.
    Switch(bool),
    /// One of the names of a choice.
    Choice(&'static str),
}

/// An unknown option or a value it does not take; the message names what it takes.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OptionError {
    /// No option has this name.
    #[error("unknown option '{name}': expected one of {}", names().join(", "))]
    Unknown {
        /// The name given (shortened).
        name: String,
    },
    /// A value the option does not take.
    #[error("{name} is {takes}, not {got}")]
    Value {
        /// The option.
        name: &'static str,
        /// What it takes (`a whole number from 0 to 64 (0: no limit)`).
        takes: String,
        /// The value given (shortened).
        got: String,
    },
}

const fn whole(min: u64, max: u64, default: u64, zero: Option<&'static str>) -> Kind {
    Kind::Whole {
        min,
        max,
        default,
        zero,
    }
}

/// `threads`: search threads.
pub const THREADS: EngineOption = EngineOption {
    name: "threads",
    kind: whole(1, search::MAX_THREADS as u64, 1, None),
    help: "search threads; a search runs at most as many as the machine's hardware threads, so that more cannot break a time budget",
};
/// `hash_mb`: the transposition table's size.
pub const HASH_MB: EngineOption = EngineOption {
    name: "hash_mb",
    kind: whole(1, search::MAX_HASH_MB as u64, 16, None),
    help: "transposition table size in MiB",
};
/// `depth`: the depth limit of a search.
pub const DEPTH: EngineOption = EngineOption {
    name: "depth",
    kind: whole(0, search::MAX_DEPTH as u64, 0, Some("no limit")),
    help: "search depth limit in plies",
};
/// `nodes`: the node limit of a search.
pub const NODES: EngineOption = EngineOption {
    name: "nodes",
    kind: whole(0, u64::MAX, 0, Some("no limit")),
    help: "nodes per search",
};
/// `movetime_ms`: the time of a search.
pub const MOVETIME_MS: EngineOption = EngineOption {
    name: "movetime_ms",
    kind: whole(0, MAX_MOVETIME_MS, 0, Some("no limit")),
    help: "time per move in milliseconds (without any limit, or a clock, a move takes 1 second)",
};
/// `multipv`: the root moves `analyze` reports.
pub const MULTIPV: EngineOption = EngineOption {
    name: "multipv",
    kind: whole(1, search::MAX_MULTIPV as u64, 1, None),
    help: "root moves analyze reports, each with its score and pv; generate_move always searches for the best only",
};
/// `ponder`: search the expected reply until the next command.
pub const PONDER: EngineOption = EngineOption {
    name: "ponder",
    kind: Kind::Switch { default: false },
    help: "after its own move, search the expected reply until the next command",
};
/// `show_wdl`: win/draw/loss chances beside each score (src/search/wdl.rs).
pub const SHOW_WDL: EngineOption = EngineOption {
    name: "show_wdl",
    kind: Kind::Switch { default: false },
    help: "write the side to move's win, draw and loss chances in per mille (`wdl W D L`) after each score of info lines and analyze; off by default, as UCI's UCI_ShowWDL is, for controllers that refuse unknown words",
};
/// `level`: the strength for people, from the Random player up (src/players/level.rs).
pub const LEVEL: EngineOption = EngineOption {
    name: "level",
    kind: whole(
        0,
        crate::players::level::MAX_LEVEL,
        0,
        Some("full strength"),
    ),
    help: "strength for people: 1 the random player, 2 and 3 the Fetlar study's strategies (Aggressive with Fortification, King Centered with Defensive), 4 to 7 the search 1 to 4 plies deep, 8 full strength (the search under the other options)",
};
/// `compat`: the dialect (text protocol only, before the first move of a game).
pub const COMPAT: EngineOption = EngineOption {
    name: "compat",
    kind: Kind::Choice {
        names: &["0.3", "off"],
        default: "off",
    },
    help: "before the first move, 0.3 speaks the protocol of hnefatafl-copenhagen 0.3.1 (off: hnefi's own)",
};

/// `net`: a learned network (src/search/networks.rs), as the command line's `--net`.
pub(crate) const NET: EngineOption = EngineOption {
    name: "net",
    kind: Kind::File {
        default: "the engine's own",
    },
    help: "a network file of `hnefi train`, which replaces the network of the board size its header names (the others stay); none removes every board's network (the hand-written evaluation alone)",
};

/// Every option, in the order `help set_option` gives them.
pub const OPTIONS: &[EngineOption] = &[
    THREADS,
    HASH_MB,
    DEPTH,
    NODES,
    MOVETIME_MS,
    MULTIPV,
    PONDER,
    SHOW_WDL,
    LEVEL,
    NET,
    COMPAT,
];

/// The option called `name`.
pub(crate) fn find(name: &str) -> Option<&'static EngineOption> {
    OPTIONS.iter().find(|o| o.name == name)
}

/// The option called `name`, or the error that lists the names.
pub fn get(name: &str) -> Result<&'static EngineOption, OptionError> {
    find(name).ok_or_else(|| OptionError::Unknown {
        name: crate::core::excerpt::excerpt(name),
    })
}

/// Every option's name.
pub fn names() -> Vec<&'static str> {
    OPTIONS.iter().map(|o| o.name).collect()
}

impl EngineOption {
    /// What the option takes, for messages and help: `a whole number from 0 to 64 (0: no
    /// limit)`, `true or false`, `0.3 or off`.
    pub fn takes(&self) -> String {
        match self.kind {
            Kind::Whole { min, max, zero, .. } => {
                let zero = zero.map(|z| format!(" (0: {z})")).unwrap_or_default();
                format!("a whole number from {min} to {max}{zero}")
            }
            Kind::Switch { .. } => "true or false".into(),
            Kind::File { .. } => "a file or none".into(),
            Kind::Choice { names, .. } => names.join(" or "),
        }
    }

    /// The default, as text.
    pub(crate) fn default_text(&self) -> String {
        match self.kind {
            Kind::Whole { default, .. } => default.to_string(),
            Kind::Switch { default } => default.to_string(),
            Kind::File { default } => default.to_string(),
            Kind::Choice { default, .. } => default.to_string(),
        }
    }

    /// One line of help: name, what it takes, the default and what it does.
    pub fn describe(&self) -> String {
        format!(
            "{}: {}, default {}; {}",
            self.name,
            self.takes(),
            self.default_text(),
            self.help
        )
    }

    /// The help of the command line's flag: what it does, what it takes and the default.
    pub fn flag_help(&self) -> String {
        format!(
            "{} ({}; default {}; as `set_option {} VALUE`)",
            capitalized(self.help),
            self.takes(),
            self.default_text(),
            self.name
        )
    }

    /// The help of the command line's flag of a switch (`--ponder`), which sets it true.
    pub fn switch_flag_help(&self) -> String {
        format!(
            "{} (as `set_option {} true`; off by default)",
            capitalized(self.help),
            self.name
        )
    }

    /// The names a choice takes (none for an option of another kind).
    pub fn names(&self) -> &'static [&'static str] {
        match self.kind {
            Kind::Choice { names, .. } => names,
            _ => &[],
        }
    }

    fn bad(&self, got: &str) -> OptionError {
        OptionError::Value {
            name: self.name,
            takes: self.takes(),
            got: crate::core::excerpt::excerpt(got),
        }
    }

    /// Reads a value of this option.
    pub fn parse(&self, text: &str) -> Result<Value, OptionError> {
        match self.kind {
            Kind::Whole { .. } => self.whole(text).map(Value::Whole),
            Kind::Switch { .. } => match text {
                "true" => Ok(Value::Switch(true)),
                "false" => Ok(Value::Switch(false)),
                _ => Err(self.bad(text)),
            },
            Kind::Choice { names, .. } => names
                .iter()
                .find(|n| **n == text)
                .map(|n| Value::Choice(n))
                .ok_or_else(|| self.bad(text)),
            // A file is read by its owner (Session::set_net), not here.
            Kind::File { .. } => Err(self.bad(text)),
        }
    }

    /// Reads a whole number in the option's range (an error for an option of another
    /// kind).
    pub(crate) fn whole(&self, text: &str) -> Result<u64, OptionError> {
        let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
        match text.parse::<u64>() {
            Ok(n) if digits => self.check(n),
            _ => Err(self.bad(text)),
        }
    }

    /// Checks a whole number against the option's range.
    pub(crate) fn check(&self, value: u64) -> Result<u64, OptionError> {
        match self.kind {
            Kind::Whole { min, max, .. } if (min..=max).contains(&value) => Ok(value),
            _ => Err(self.bad(&value.to_string())),
        }
    }

    /// The largest whole value (0 for an option of another kind).
    pub(crate) fn max(&self) -> u64 {
        match self.kind {
            Kind::Whole { max, .. } => max,
            _ => 0,
        }
    }

    /// The default of a whole option (0 for an option of another kind).
    pub fn default_whole(&self) -> u64 {
        match self.kind {
            Kind::Whole { default, .. } => default,
            _ => 0,
        }
    }

    /// A parser of this option's whole values for the command line (clap's
    /// `value_parser`).
    pub fn flag_parser(
        self,
    ) -> impl Fn(&str) -> Result<u64, OptionError> + Clone + Send + Sync + 'static {
        move |text| self.whole(text)
    }
}

fn capitalized(s: &str) -> String {
    let mut chars = s.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// A time control that is not `MIN+INC` within the bounds.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error(
    "'{0}' is not MIN+INC (minutes from more than 0 to {MAX_MINUTES}, then + and seconds added per move from 0 to {MAX_INCREMENT_SECS}; decimals allowed, e.g. 15+10 or 0.5+0.1)"
)]
pub(crate) struct TcError(pub String);

/// Reads `MIN+INC`: minutes (more than 0) and seconds added per move, both decimal
/// numbers within [`MAX_MINUTES`] and [`MAX_INCREMENT_SECS`]; `MIN` alone is `MIN+0`.
pub(crate) fn parse_min_inc(text: &str) -> Result<Fischer, TcError> {
    let err = || TcError(crate::core::excerpt::excerpt(text));
    let (min, inc) = text.split_once('+').unwrap_or((text, "0"));
    let min = decimal(min.trim()).ok_or_else(err)?;
    let inc = decimal(inc.trim()).ok_or_else(err)?;
    if !(min > 0.0 && min <= MAX_MINUTES && inc <= MAX_INCREMENT_SECS) {
        return Err(err());
    }
    let base = Duration::try_from_secs_f64(min * 60.0).map_err(|_| err())?;
    let increment = Duration::try_from_secs_f64(inc).map_err(|_| err())?;
    Ok(Fischer { base, increment })
}

/// A non-negative decimal number written with digits and at most one dot (no sign,
/// exponent, `inf` or `nan`).
pub(crate) fn decimal(text: &str) -> Option<f64> {
    let digits = text.bytes().filter(u8::is_ascii_digit).count();
    let dots = text.bytes().filter(|&b| b == b'.').count();
    if digits == 0 || dots > 1 || digits + dots != text.len() || text.len() > 32 {
        return None;
    }
    text.parse::<f64>().ok().filter(|v| v.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_range() {
        let e = DEPTH.whole("99999999999999999999").unwrap_err().to_string();
        assert_eq!(
            e,
            "depth is a whole number from 0 to 64 (0: no limit), not 99999999999999999999"
        );
        assert!(THREADS.whole("0").is_err());
        assert_eq!(THREADS.whole("3"), Ok(3));
        assert!(THREADS.whole("+3").is_err());
        assert!(THREADS.whole("").is_err());
        assert_eq!(PONDER.parse("true"), Ok(Value::Switch(true)));
        assert!(PONDER.parse("yes").is_err());
        assert_eq!(COMPAT.parse("0.3"), Ok(Value::Choice("0.3")));
        assert!(get("depht").is_err());
    }

    #[test]
    fn min_inc() {
        let tc = parse_min_inc("15+10").unwrap();
        assert_eq!(tc.base, Duration::from_secs(900));
        assert_eq!(tc.increment, Duration::from_secs(10));
        assert_eq!(parse_min_inc("5").unwrap().increment, Duration::ZERO);
        for bad in [
            "", "0+1", "-1+1", "nan+1", "inf+1", "1e9+1", "1+-1", "1++1", "600000+0",
        ] {
            assert!(parse_min_inc(bad).is_err(), "{bad}");
        }
    }
}

#[cfg(test)]
mod examples {
    //! The examples of this file's documentation, as unit tests: the items they show are
    //! the crate's own, which a doctest (another crate) cannot reach.

    #[test]
    fn options() {
        use crate::options;
        assert_eq!(options::find("depth").map(|o| o.name), Some("depth"));
        let e = options::DEPTH.whole("99999999999999999999").unwrap_err();
        assert_eq!(
            e.to_string(),
            "depth is a whole number from 0 to 64 (0: no limit), not 99999999999999999999"
        );
    }

    #[test]
    fn parse_min_inc() {
        use std::time::Duration;
        let tc = crate::options::parse_min_inc("1+0.5").unwrap();
        assert_eq!(
            (tc.base, tc.increment),
            (Duration::from_secs(60), Duration::from_millis(500))
        );
        assert!(crate::options::parse_min_inc("0+1").is_err());
    }
}
