//! The flags of `hnefi match`.

use std::path::PathBuf;

use clap::Args;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

use crate::core::geometry::BoardSize;
use crate::core::repetition::RepetitionMode;
use crate::core::role::Role;
use crate::core::rules_source::RulesSource;

/// The flags of `hnefi match`.
#[derive(Args, Debug, Clone)]
pub struct MatchArgs {
    /// An engine command line (split as a shell does), given twice or more (every pair
    /// plays, or with --gauntlet the first against each of the others). Prefix `htp:` for the reference engine's dialect
    /// (`htp:hnefatafl-text-protocol`), `htp-tcp:` to start the reference engine in TCP
    /// mode with the runner as its relay on 127.0.0.1:49152 (`htp-tcp:hnefatafl-text-protocol
    /// --host 127.0.0.1 --ai basic --depth 2`), `uci:` for a UCI-style tafl engine
    /// (TaflZero, ZevraTafl), `otep:` for an OpenTafl Engine Protocol engine.
    #[arg(long = "engine", value_name = "CMD", required = true)]
    pub(crate) engines: Vec<String>,
    /// A gauntlet, as cutechess-cli plays one: the first engine plays each of the others
    /// (--games games each); the others do not meet. Without it every pair plays (a round
    /// robin).
    #[arg(long)]
    pub(crate) gauntlet: bool,
    /// In a gauntlet, the side the first engine plays in every game (attackers or
    /// defenders), each game from an opening of its own: for opponents that play one
    /// side only (`hnefi --player aggressive`). Without it sides alternate.
    #[arg(long, value_name = "SIDE", requires = "gauntlet", value_parser = side_parser())]
    pub(crate) e1_plays: Option<Role>,
    /// The engine (its number in --engine order, from 1) whose rating the rating list
    /// holds at 0.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub(crate) anchor: usize,
    /// Games per engine pair (sides alternate).
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub(crate) games: usize,
    /// Time per move in milliseconds (sent to hnefi engines as `set_option movetime_ms`).
    #[arg(long, value_name = "MS", conflicts_with = "tc")]
    pub(crate) movetime_ms: Option<u64>,
    /// Fischer clock: minutes per side + seconds added per move, e.g. `1+0.5`.
    #[arg(long, value_name = "MIN+INC")]
    pub(crate) tc: Option<String>,
    /// The time control of one engine, for time odds: `N=MSms`, a fixed time per move
    /// (`2=62ms`), or `N=MIN+INC`, a Fischer clock (`1=1+1`); N is the engine's number in
    /// --engine order, from 1. Once per engine at most; the others keep --movetime-ms or
    /// --tc.
    #[arg(long = "engine-tc", value_name = "N=TC")]
    pub(crate) engine_tc: Vec<String>,
    /// A records file (CSV like tests/data/copenhagen.csv, or one move list per line)
    /// whose games' first plies are the openings.
    #[arg(long, value_name = "FILE")]
    pub(crate) openings: Option<PathBuf>,
    /// Plies of each opening (default 8 with --openings; without it, K random legal
    /// plies from --seed, default 4; 0 plays every game from the start position).
    #[arg(long, value_name = "K")]
    pub(crate) opening_plies: Option<usize>,
    /// Games played at the same time (1 when an engine plays over TCP).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub(crate) concurrency: usize,
    /// Append each game's record to this CSV file (and reasons to FILE.meta).
    #[arg(long, value_name = "FILE")]
    pub(crate) out: Option<PathBuf>,
    /// Seed for random openings and for the order of the openings file.
    #[arg(long, value_name = "S")]
    pub(crate) seed: Option<u64>,
    /// A named rule set: copenhagen, hnefatafl-org (the hnefatafl.org server's rules),
    /// fetlar, brandubh, tablut, sea-battle or tawlbwrdd, played on --board-size; or an
    /// OpenTafl rules string quoted as one argument ('dim:7 name:Brandub ...
    /// start:/3t3/...'), played on its own board, which only hnefi engines (`set_rule
    /// rules STRING`) and OTEP engines (`rules STRING`) can be told; other dialects are
    /// refused. --repetition and --move-limit override its parts. Sent to hnefi engines.
    #[arg(long, value_name = "NAME|STRING")]
    pub(crate) rules: Option<RulesSource>,
    /// The board: the --rules family's game of that size (7, 9, ..., 19, or 7x7 and
    /// so on; default the family's usual board, 11x11 for copenhagen). hnefi engines are
    /// told `board_size N`, and so is the reference engine; engines of the other
    /// dialects play 11x11 only and are refused on other boards.
    #[arg(long, value_name = "N")]
    pub(crate) board_size: Option<BoardSize>,
    /// Repetition rule (default defender-third-illegal, or the --rules preset's;
    /// defender-any-repeat-illegal, the
    /// reference engine's rule, when an htp engine plays; third-occurrence-mover-loses,
    /// OpenTafl's, when an otep engine plays a family's game; under a rules string, the
    /// string's).
    #[arg(long, value_name = "MODE")]
    pub(crate) repetition: Option<RepetitionMode>,
    /// A draw after this many plies (0 = no limit).
    #[arg(long, value_name = "PLIES")]
    pub(crate) move_limit: Option<u32>,
    /// Continue the match in --out: replay the games recorded there and skip them (the
    /// engines, openings, time control and rules must be those of the file's header;
    /// --games may grow).
    #[arg(long, requires = "out")]
    pub(crate) resume: bool,
    /// Stop early by a sequential probability ratio test on the first engine vs the
    /// second: `elo0,elo1,alpha,beta`, e.g. `0,20,0.05,0.05`.
    #[arg(long, value_name = "ELO0,ELO1,ALPHA,BETA")]
    pub(crate) sprt: Option<String>,
    /// How far over its time (per move or clock) an engine may go before it loses.
    #[arg(long, value_name = "MS", default_value_t = 200)]
    pub(crate) time_margin_ms: u64,
    /// Wait at least this long after an otep engine's move before telling it the next
    /// move (not on any clock). OpenTafl's own engine plays its move on its board and
    /// prints its search statistics only after sending it, in another thread: a reply
    /// within those milliseconds crashed it (docs/matches.md).
    #[arg(long, value_name = "MS", default_value_t = 0)]
    pub(crate) otep_settle_ms: u64,
    /// Deadline of a move when there is no time control.
    #[arg(long, value_name = "MS", default_value_t = 120_000)]
    pub(crate) move_timeout_ms: u64,
    /// Deadline of the reply to any other command (and of the relay connection).
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub(crate) reply_timeout_ms: u64,
    /// Log every line sent to and received from the engines on stderr (`E1> ...`,
    /// `E1< ...`), and let the engines' own stderr through.
    #[arg(long)]
    pub(crate) debug: bool,
}

/// The values of `--e1-plays`: a side by its plural name, the first engine's in every game.
fn side_parser() -> impl TypedValueParser<Value = Role> {
    PossibleValuesParser::new([
        PossibleValue::new("attackers").help("The first engine attacks in every game"),
        PossibleValue::new("defenders").help("The first engine defends in every game"),
    ])
    .try_map(|side| side.parse::<Role>())
}
