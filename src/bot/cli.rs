//! The flags of `hnefi bot`, after those of the reference bot (`taflzero`) where they
//! apply, and hnefi's search options.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use crate::core::geometry::BoardSize;
use crate::core::role::Role;
use crate::options;
use crate::time_control::Fischer;

use super::clock::Caps;
use super::games::SERVER_SIZES;
use super::json::GameId;
use super::log::Log;
use super::message::{self, VERSION_ID};
use super::password;
use super::shutdown::Shutdown;
use super::{Config, run_until};

/// The end of `hnefi bot --help`: what is needed, and a first run.
const AFTER_HELP: &str = "\
The bot needs --username and something to do: --accept-games N (keep N offers of its own
open) or --join-game ID (join a game someone offered) or --join-tournament (play the
server's tournament), or several of them.

SIGTERM (or SIGINT, SIGHUP) stops it as a service is stopped: no new games, the games in
progress finished within --stop-grace-secs (then resigned), a logout, exit status 0.

The password: --password-file FILE (the first line of a file only its owner may open,
e.g. chmod 600), or the environment variable HNEFI_BOT_PASSWORD, or --password (which
every user of the machine sees in `ps`). It is never logged.

A first run, which creates the account and keeps one offer open as the defenders:
  umask 077; printf '%s\\n' 'a-secret-word' > ~/.hnefi-bot-password
  hnefi bot --username my-bot --password-file ~/.hnefi-bot-password --create-account \\
      --accept-games 1 --role defender --tc 15+10
Later runs: the same without --create-account.";

/// `hnefi bot`: play on a hnefatafl.org server.
#[derive(Args, Debug, Clone)]
#[command(after_help = AFTER_HELP)]
pub struct BotArgs {
    /// The server.
    #[arg(long, default_value = "hnefatafl.org")]
    pub(crate) host: String,
    /// Its port.
    #[arg(long, default_value_t = 49152)]
    pub(crate) port: u16,
    /// The account to play as.
    #[arg(long)]
    pub(crate) username: String,
    /// Its password (never logged), seen by every user of the machine in `ps`: prefer
    /// --password-file or HNEFI_BOT_PASSWORD. Empty when none of the three is given, as
    /// for the reference bot.
    #[arg(long, conflicts_with = "password_file")]
    pub(crate) password: Option<String>,
    /// Read the password from the first line of this file, which only its owner may
    /// read or write (refused otherwise; chmod 600 FILE).
    #[arg(long, value_name = "FILE")]
    pub(crate) password_file: Option<PathBuf>,
    /// Create the account at the first login.
    #[arg(long)]
    pub(crate) create_account: bool,
    /// Our side in the games we offer: attacker or defender.
    #[arg(long, default_value = "defender")]
    pub(crate) role: Role,
    /// The board of the games we offer: 7, 11 or 13 (the server's sizes, each under the
    /// server's rules for it), or several, comma-separated (the offers cycle through
    /// them). Challenges and games joined are played on every one of them.
    #[arg(long, value_name = "N", default_value = "11", value_parser = parse_board_size, value_delimiter = ',')]
    pub(crate) board_size: Vec<BoardSize>,
    /// Keep this many offered games open (waiting for a challenger or being played).
    /// This or --join-game is needed.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub(crate) accept_games: u32,
    /// Join this game offered by someone else. This or --accept-games is needed.
    #[arg(long, value_name = "ID")]
    pub(crate) join_game: Option<GameId>,
    /// Offer rated games.
    #[arg(long)]
    pub(crate) rated: bool,
    /// The clock of the games we offer: MIN+INC (Fischer: minutes, seconds added per move;
    /// the server counts the increment in whole seconds) or `untimed`; or several,
    /// comma-separated (the offers cycle through every board with every clock).
    #[arg(
        long,
        value_name = "MIN+INC",
        default_value = "15+10",
        value_delimiter = ','
    )]
    pub(crate) tc: Vec<String>,
    /// Search threads (the range is the engine's `threads`).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = options::THREADS.flag_parser())]
    pub(crate) threads: u64,
    /// Transposition table size in MiB (the bot's default is 64; the range is the
    /// engine's `hash_mb`).
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = options::HASH_MB.flag_parser())]
    pub(crate) hash_mb: u64,
    /// The longest a move may take, in milliseconds, and the time per move in untimed
    /// games; timed games budget from their clock below this (1 to the engine's
    /// `movetime_ms` maximum, a week).
    #[arg(long, value_name = "MS", default_value_t = 10_000, value_parser = options::MOVETIME_MS.flag_parser())]
    pub(crate) max_move_ms: u64,
    /// Nodes per move, a strength cap (the engine's `nodes`; 0 = none).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = options::NODES.flag_parser())]
    pub(crate) nodes: u64,
    /// Depth per move in plies, a strength cap (the engine's `depth`; 0 = none).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = options::DEPTH.flag_parser())]
    pub(crate) depth: u64,
    /// Stop after this many games are over (0 = run until stopped).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub(crate) max_games: u32,
    /// Give up after this many failed reconnection attempts in a row.
    #[arg(long, value_name = "N", default_value_t = 30)]
    pub(crate) max_reconnects: u32,
    /// Enter the server's tournament (`join_tournament`) and play every game it makes.
    #[arg(long)]
    pub(crate) join_tournament: bool,
    /// Send `ping` after this many seconds without a line from the server, and
    /// reconnect after three times as long (1 to 3600).
    #[arg(long, value_name = "S", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub(crate) heartbeat_secs: u64,
    /// On SIGTERM (or SIGINT, SIGHUP): the seconds the games in progress may take before
    /// they are resigned (a second signal resigns at once; at most a week).
    #[arg(long, value_name = "S", default_value_t = 60, value_parser = clap::value_parser!(u64).range(0..=604_800))]
    pub(crate) stop_grace_secs: u64,
    /// The protocol version id sent at login (hnefatafl-copenhagen 6.4.1's by default).
    #[arg(long, value_name = "ID", default_value = VERSION_ID)]
    pub(crate) version_id: String,
    /// Log every line to and from the server (the password excepted) on stderr.
    #[arg(long)]
    pub(crate) debug: bool,
}

/// Reads `MIN+INC` as every tool does ([`options::parse_min_inc`]), with an increment in
/// whole seconds, as the server keeps it, or `untimed` (`None`).
pub(crate) fn parse_tc(s: &str) -> Result<Option<Fischer>, String> {
    if s.eq_ignore_ascii_case("untimed") {
        return Ok(None);
    }
    let tc = options::parse_min_inc(s).map_err(|e| format!("invalid --tc: {e}, or untimed"))?;
    if tc.increment.subsec_nanos() != 0 {
        return Err(format!(
            "invalid --tc '{}': the server adds whole seconds per move",
            crate::core::excerpt::excerpt(s)
        ));
    }
    Ok(Some(tc))
}

/// Reads `--board-size`: a size the server offers games on (`N` or `NxN`).
pub(crate) fn parse_board_size(s: &str) -> Result<BoardSize, String> {
    let sizes = "7, 11 or 13 (the boards hnefatafl.org offers)";
    match s.parse::<BoardSize>() {
        Ok(size) if SERVER_SIZES.contains(&size) => Ok(size),
        _ => Err(format!(
            "invalid board size '{}': expected {sizes}",
            crate::core::excerpt::excerpt(s)
        )),
    }
}

impl BotArgs {
    /// The configuration, or what is wrong with the flags.
    pub(crate) fn config(&self) -> Result<Config, String> {
        if self.username.is_empty()
            || self.username.len() > 16
            || self
                .username
                .chars()
                .any(|c| c.is_whitespace() || c.is_control())
        {
            return Err("--username must be 1 to 16 characters without spaces".into());
        }
        let (password, source) = password::resolve(
            self.password.as_deref(),
            self.password_file.as_deref(),
            std::env::var_os(password::ENV),
        )
        .map_err(|e| e.to_string())?;
        if source == password::Source::Flag {
            // Written as the log writes: a full disk or a closed stderr must not stop the bot.
            let _ = writeln!(
                std::io::stderr(),
                "warning: --password is visible to every user of this machine (ps); give --password-file or {} instead",
                password::ENV
            );
        }
        if self.version_id.is_empty() || self.version_id.chars().any(char::is_whitespace) {
            return Err("--version-id must be one word".into());
        }
        if self.accept_games == 0 && self.join_game.is_none() && !self.join_tournament {
            return Err(
                "nothing to do: give --accept-games N (offers of its own), --join-game ID (someone's offer) and/or --join-tournament; see hnefi bot --help".into(),
            );
        }
        if self.max_move_ms == 0 {
            return Err(format!(
                "--max-move-ms must be from 1 to {}",
                options::MOVETIME_MS.max()
            ));
        }
        // The flags' parsers checked the ranges; the table checks them again for a
        // configuration built in code.
        for (option, value) in [
            (&options::THREADS, self.threads),
            (&options::HASH_MB, self.hash_mb),
            (&options::MOVETIME_MS, self.max_move_ms),
            (&options::NODES, self.nodes),
            (&options::DEPTH, self.depth),
        ] {
            option.check(value).map_err(|e| e.to_string())?;
        }
        Ok(Config {
            host: self.host.clone(),
            port: self.port,
            username: self.username.clone(),
            password,
            create_account: self.create_account,
            version_id: self.version_id.clone(),
            role: self.role,
            board_sizes: self.board_size.clone(),
            accept_games: self.accept_games,
            join_game: self.join_game,
            rated: self.rated,
            times: self
                .tc
                .iter()
                .map(|tc| parse_tc(tc))
                .collect::<Result<_, _>>()?,
            threads: usize::try_from(self.threads).unwrap_or(1),
            hash_mb: usize::try_from(self.hash_mb).unwrap_or(1),
            caps: Caps {
                max_move: Duration::from_millis(self.max_move_ms),
                nodes: (self.nodes > 0).then_some(self.nodes),
                depth: u32::try_from(self.depth).ok().filter(|&d| d > 0),
            },
            max_games: self.max_games,
            max_reconnects: self.max_reconnects.max(1),
            join_tournament: self.join_tournament,
            heartbeat: Duration::from_secs(self.heartbeat_secs.max(1)),
            stop_grace: Duration::from_secs(self.stop_grace_secs),
        })
    }
}

/// The first line of the log: what runs, as whom, on which boards, within which limits
/// (never the password).
pub(crate) fn startup_line(c: &Config) -> String {
    let offers = if c.accept_games > 0 {
        let boards: Vec<String> = c.board_sizes.iter().map(|s| format!("{s}x{s}")).collect();
        let clocks: Vec<String> = c.times.iter().map(|&t| message::clock_text(t)).collect();
        format!(
            "{} offer(s) as the {}s on {} at {}, {}",
            c.accept_games,
            c.role,
            boards.join(" / "),
            clocks.join(" / "),
            if c.rated { "rated" } else { "unrated" }
        )
    } else {
        "no offers".to_string()
    };
    let join = c
        .join_game
        .map_or(String::new(), |id| format!(", joining game {id}"));
    let tournament = if c.join_tournament {
        ", entering the tournament"
    } else {
        ""
    };
    let sizes: Vec<String> = SERVER_SIZES.iter().map(|s| format!("{s}x{s}")).collect();
    let cap = |v: Option<String>| v.unwrap_or_else(|| "none".to_string());
    format!(
        "hnefi {} bot (protocol {}, hnefatafl-copenhagen {}) as {} on {}:{}: {offers}{join}{tournament}; plays {}; search: {} thread(s), {} MiB hash, at most {} ms a move, nodes {}, depth {}; max games {}; heartbeat {} s; stop grace {} s; up to {} reconnection attempts",
        env!("CARGO_PKG_VERSION"),
        c.version_id,
        super::message::SERVER_RELEASE,
        c.username,
        c.host,
        c.port,
        sizes.join(", "),
        c.threads,
        c.hash_mb,
        c.caps.max_move.as_millis(),
        cap(c.caps.nodes.map(|n| n.to_string())),
        cap(c.caps.depth.map(|d| d.to_string())),
        if c.max_games == 0 {
            "unlimited".to_string()
        } else {
            c.max_games.to_string()
        },
        c.heartbeat.as_secs(),
        c.stop_grace.as_secs(),
        c.max_reconnects
    )
}

/// `hnefi bot`.
pub fn main(args: &BotArgs) -> ExitCode {
    let config = match args.config() {
        Ok(c) => c,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "error: {e}");
            return ExitCode::from(2);
        }
    };
    let log = Log::stderr(args.debug);
    let shutdown = match Shutdown::on_signals() {
        Ok(s) => s,
        Err(e) => {
            log.info(&format!(
                "warning: cannot handle SIGTERM ({e}); a signal ends the bot at once"
            ));
            Shutdown::new()
        }
    };
    log.info(&startup_line(&config));
    match run_until(&config, &log, &shutdown) {
        Ok(summary) => {
            log.info(&format!(
                "done: {} game(s) over, {} move(s) refused by the server, {} reconnection(s), {} game(s) the server lost, {} conceded on stopping, {} unreadable line(s)",
                summary.finished.len(),
                summary.refused_moves,
                summary.reconnects,
                summary.lost_games,
                summary.resigned_on_stop,
                summary.bad_lines
            ));
            ExitCode::SUCCESS
        }
        Err(e) => {
            log.info(&format!("error: {e}"));
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!(
            parse_tc("1+1"),
            Ok(Some(Fischer {
                base: Duration::from_millis(60_000),
                increment: Duration::from_secs(1)
            }))
        );
        assert_eq!(
            parse_tc("0.5+0"),
            Ok(Some(Fischer {
                base: Duration::from_millis(30_000),
                increment: Duration::from_secs(0)
            }))
        );
        assert_eq!(parse_tc("untimed"), Ok(None));
        // MIN alone is MIN+0, as everywhere.
        assert_eq!(
            parse_tc("5"),
            Ok(Some(Fischer {
                base: Duration::from_millis(300_000),
                increment: Duration::from_secs(0)
            }))
        );
        for bad in ["", "0+1", "-1+1", "1+0.5", "nan+1", "inf+1", "1e9+1"] {
            assert!(parse_tc(bad).is_err(), "{bad}");
        }
    }

    /// Only the boards the server offers: 9x9 and 15x15 are hnefi's, not the server's.
    #[test]
    fn board_sizes() {
        for (text, size) in [
            ("7", BoardSize::S7),
            ("11", BoardSize::S11),
            ("13x13", BoardSize::S13),
        ] {
            assert_eq!(parse_board_size(text), Ok(size));
        }
        for bad in ["9", "15", "12", "", "11x13"] {
            let err = parse_board_size(bad).unwrap_err();
            assert!(err.contains("7, 11 or 13"), "{err}");
        }
    }
}
