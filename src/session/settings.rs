//! A session's settings: the whole-number search options ([`SearchOption`]) and the
//! others of the options table, the evaluation's weights, the network, the search's
//! features, pondering, the win/draw/loss chances and colour.

use crate::core::role::Role;
use crate::options::{self, EngineOption, OptionError};
use crate::search::{Feature, Networks};

use super::Session;
use super::error::SessionError;
use crate::core::excerpt::excerpt;

/// A search option that `set_option` and the command line can set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchOption {
    /// Search threads ([`options::THREADS`]).
    Threads(u64),
    /// Transposition table size in MiB ([`options::HASH_MB`]).
    HashMb(u64),
    /// Depth limit in plies, 0 = none ([`options::DEPTH`]).
    Depth(u64),
    /// Node limit (0 = none).
    Nodes(u64),
    /// Time per move in milliseconds (0 = none).
    MovetimeMs(u64),
    /// Root moves `analyze` reports, each with its own score and pv
    /// ([`options::MULTIPV`]); `generate_move` always searches for the best only.
    MultiPv(u64),
    /// The strength for people ([`options::LEVEL`]; 0: full strength).
    Level(u64),
}

impl SearchOption {
    /// The option called `name` (one of the whole-number options of
    /// [`options::OPTIONS`]) with `value`, checked against its range.
    pub fn from_name(name: &str, value: u64) -> Result<SearchOption, OptionError> {
        let opt = match name {
            "threads" => SearchOption::Threads(value),
            "hash_mb" => SearchOption::HashMb(value),
            "depth" => SearchOption::Depth(value),
            "nodes" => SearchOption::Nodes(value),
            "movetime_ms" => SearchOption::MovetimeMs(value),
            "multipv" => SearchOption::MultiPv(value),
            "level" => SearchOption::Level(value),
            _ => {
                return Err(OptionError::Unknown {
                    name: excerpt(name),
                });
            }
        };
        opt.validate()?;
        Ok(opt)
    }

    /// The option's entry in the table, and its value.
    pub(crate) fn entry(self) -> (&'static EngineOption, u64) {
        match self {
            SearchOption::Threads(v) => (&options::THREADS, v),
            SearchOption::HashMb(v) => (&options::HASH_MB, v),
            SearchOption::Depth(v) => (&options::DEPTH, v),
            SearchOption::Nodes(v) => (&options::NODES, v),
            SearchOption::MovetimeMs(v) => (&options::MOVETIME_MS, v),
            SearchOption::MultiPv(v) => (&options::MULTIPV, v),
            SearchOption::Level(v) => (&options::LEVEL, v),
        }
    }

    /// Checks the value against the option's range in the table.
    pub(crate) fn validate(self) -> Result<(), OptionError> {
        let (option, value) = self.entry();
        option.check(value).map(|_| ())
    }
}

impl Session {
    /// Switches a search feature on or off (for self-play comparisons).
    pub fn set_feature(&mut self, feature: Feature, on: bool) {
        let mut features = self.searcher.features();
        features.set(feature, on);
        self.searcher.set_features(features);
    }

    /// The learned corrections of both sides' searches, one per board size at most (a new
    /// session has the engine's own, [`Networks::embedded`]).
    #[cfg(test)]
    pub(crate) fn networks(&self) -> &Networks {
        self.searcher.networks()
    }

    /// `--net` and `set_option net` ([`options::NET`]): `none` removes every board's
    /// network (the hand-written evaluation alone); a file's network replaces the one of
    /// the board size its header names, the others stay. Returns that size. On an error
    /// (an unreadable file, not a network, a board hnefi does not play) nothing changes.
    pub fn set_net(&mut self, value: &str) -> Result<Option<u8>, SessionError> {
        if value == "none" {
            self.searcher.set_networks(Networks::none());
            return Ok(None);
        }
        let mut nets = self.searcher.networks().clone();
        let size = nets.install_file(std::path::Path::new(value))?;
        self.searcher.set_networks(nets);
        Ok(Some(size))
    }

    /// Sets one evaluation weight from `NAME=VALUE` (for tuning by self-play) in the
    /// searches for `side`, or for both sides when `side` is `None`; on an error nothing
    /// changes.
    pub fn set_weight(&mut self, side: Option<Role>, assignment: &str) -> Result<(), SessionError> {
        for s in Role::ALL
            .into_iter()
            .filter(|&s| side.is_none_or(|r| r == s))
        {
            let mut w = self.searcher.weights(s);
            w.set(assignment)?;
            self.searcher.set_weights(s, w);
        }
        Ok(())
    }

    /// Sets a search option (checked first).
    pub fn set_option(&mut self, opt: SearchOption) -> Result<(), SessionError> {
        opt.validate()?;
        match opt {
            SearchOption::Threads(n) => self.searcher.set_threads(usize::try_from(n).unwrap_or(1)),
            SearchOption::HashMb(n) => self.searcher.set_hash_mb(usize::try_from(n).unwrap_or(1)),
            SearchOption::Depth(n) => self.limits.depth = n,
            SearchOption::Nodes(n) => self.limits.nodes = n,
            SearchOption::MovetimeMs(n) => self.limits.movetime_ms = n,
            SearchOption::MultiPv(n) => self.multipv = usize::try_from(n).unwrap_or(1),
            SearchOption::Level(n) => self.level = n,
        }
        Ok(())
    }

    /// Sets an option of the table ([`options::OPTIONS`]) to a value read by
    /// [`EngineOption::parse`]; `compat`, which belongs to the protocol engine, is refused
    /// here.
    pub fn set_option_value(
        &mut self,
        option: &EngineOption,
        value: options::Value,
    ) -> Result<(), SessionError> {
        match value {
            options::Value::Whole(v) => self.set_option(SearchOption::from_name(option.name, v)?),
            options::Value::Switch(on) if option.name == options::PONDER.name => {
                self.set_ponder(on);
                Ok(())
            }
            options::Value::Switch(on) if option.name == options::SHOW_WDL.name => {
                self.set_show_wdl(on);
                Ok(())
            }
            _ => Err(OptionError::Unknown {
                name: option.name.to_string(),
            }
            .into()),
        }
    }

    /// Switches pondering on or off: after its own move, the engine searches the reply it
    /// expects until the next command, so that the table is warm if that reply is played.
    pub fn set_ponder(&mut self, on: bool) {
        self.ponder = on;
        self.expected_reply = None;
    }

    /// Switches the win/draw/loss chances beside scores on or off ([`options::SHOW_WDL`]).
    pub fn set_show_wdl(&mut self, on: bool) {
        self.show_wdl = on;
    }

    /// Whether `show_board` draws in colour.
    pub(crate) fn colour(&self) -> bool {
        self.colour
    }

    /// Makes `show_board` draw in colour or not (off, the default: the plain text every
    /// controller reads).
    pub fn set_colour(&mut self, on: bool) {
        self.colour = on;
    }
}
