//! The `hnefi` command line.

#![forbid(unsafe_code)]
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use hnefi::core::geometry::BoardSize;
use hnefi::core::repetition::RepetitionMode;
use hnefi::core::role::Role;
use hnefi::core::rules_source::RulesSource;
use hnefi::options;
use hnefi::players::{Player, Strategy};
use hnefi::protocol::otep::OtepEngine;
use hnefi::protocol::terminal::EditedInput;
use hnefi::protocol::{Dialect, Engine};
use hnefi::search::Feature;
use hnefi::session::{SearchOption, Session};
use hnefi::tools::matches;
use hnefi::tune::{label, merge, net, selfplay, texel, wdl_fit};

/// hnefi: a Hnefatafl engine for every board from 7x7 to 19x19.
///
/// It plays Copenhagen, Fetlar, the hnefatafl.org server's 7x7, 11x11 and 13x13 games,
/// OpenTafl's Brandubh, Tablut, Sea Battle and Tawlbwrdd, and OpenTafl rules strings like
/// them (--rules; `board_size N` in the protocol, --board-size in the subcommands).
///
/// Without a subcommand, hnefi speaks the text protocol (GTP framing): one command per
/// line on stdin, one reply per command on stdout, search information on stderr. Send
/// `list_commands` for the commands and `help NAME` for one of them. --compat 0.3 speaks
/// the hnefatafl-copenhagen crate's 0.3.1 dialect instead, --otep OpenTafl's engine
/// protocol. The subcommands are its tools: a bot for hnefatafl.org, a match runner,
/// perft and bench, self-play, tuning and network training.
#[derive(Parser, Debug)]
#[command(name = "hnefi", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    engine: EngineFlags,
    /// Speak the OpenTafl Engine Protocol instead of the text protocol, as an engine
    /// OpenTafl can host (see "In OpenTafl" in README.md for its .ini file).
    #[arg(long)]
    otep: bool,
}

/// The settings the protocol can change too (`set_rule`, `set_option`).
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("seeded").multiple(true).args(["player", "level"])))]
struct EngineFlags {
    /// A named rule set: copenhagen (the default), hnefatafl-org (the rules of the
    /// hnefatafl.org server), fetlar, brandubh, tablut, sea-battle or tawlbwrdd, started on
    /// its usual board; or an OpenTafl rules string, quoted as one argument ('dim:7
    /// name:Brandub ... start:/3t3/...', optionally after the word rules), started on its
    /// own board. --repetition and --move-limit override its parts (as `set_rule rules
    /// NAME|STRING`).
    #[arg(long, value_name = "NAME|STRING")]
    rules: Option<RulesSource>,
    /// Repetition rule: defender-third-illegal (default), off, defender-any-repeat-illegal,
    /// third-occurrence-mover-loses, any-repeat-illegal, third-occurrence-draws or
    /// third-occurrence-mover-wins (as `set_rule repetition MODE`).
    #[arg(long, value_name = "MODE")]
    repetition: Option<RepetitionMode>,
    /// Draw after this many plies; 0 = no limit, the default (as `set_rule move_limit N`).
    #[arg(long, value_name = "N")]
    move_limit: Option<u32>,
    #[arg(long, value_name = "N", help = options::THREADS.flag_help(), value_parser = options::THREADS.flag_parser())]
    threads: Option<u64>,
    #[arg(long, value_name = "N", help = options::HASH_MB.flag_help(), value_parser = options::HASH_MB.flag_parser())]
    hash_mb: Option<u64>,
    #[arg(long, value_name = "N", help = options::DEPTH.flag_help(), value_parser = options::DEPTH.flag_parser())]
    depth: Option<u64>,
    #[arg(long, value_name = "N", help = options::MOVETIME_MS.flag_help(), value_parser = options::MOVETIME_MS.flag_parser())]
    movetime_ms: Option<u64>,
    #[arg(long, value_name = "N", help = options::NODES.flag_help(), value_parser = options::NODES.flag_parser())]
    nodes: Option<u64>,
    #[arg(long, value_name = "N", help = options::MULTIPV.flag_help(), value_parser = options::MULTIPV.flag_parser())]
    multipv: Option<u64>,
    #[arg(long, help = options::PONDER.switch_flag_help())]
    ponder: bool,
    #[arg(long, help = options::SHOW_WDL.switch_flag_help())]
    show_wdl: bool,
    /// Switch a search feature on, for self-play comparisons: null-move, lmr,
    /// aspiration, qsearch-checks, reverse-futility, late-move-pruning, log-reductions,
    /// qsearch-captures, iir, history-reductions or defer (only lmr, qsearch-checks,
    /// log-reductions and defer are on by default). May be repeated.
    #[arg(long, value_name = "FEATURE")]
    with: Vec<Feature>,
    /// Switch a search feature off (names as for --with). May be repeated.
    #[arg(long, value_name = "FEATURE")]
    without: Vec<Feature>,
    /// Set an evaluation weight, for tuning by self-play (`--weight corner_route=40`;
    /// the names are `TERM_NAMES` in src/search/terms.rs). May be repeated.
    #[arg(long, value_name = "NAME=VALUE")]
    weight: Vec<String>,
    /// Set an evaluation weight in the searches for the attackers only (when hnefi plays
    /// the attackers; after --weight). May be repeated.
    #[arg(long, value_name = "NAME=VALUE")]
    attacker_weight: Vec<String>,
    /// Set an evaluation weight in the searches for the defenders only. May be repeated.
    #[arg(long, value_name = "NAME=VALUE")]
    defender_weight: Vec<String>,
    /// The learned correction added to the evaluation of both sides' searches: a network
    /// file written by `hnefi train`, which replaces the engine's own network of the board
    /// size its header names, or `none` for the hand-written terms alone on every board
    /// (without the flag: the engine's own networks, docs/nets; as `set_option net`).
    #[arg(long, value_name = "FILE|none")]
    net: Option<PathBuf>,
    /// Speak the protocol of the hnefatafl-copenhagen crate's 0.3.1 release: files a to l
    /// without i, black (the attackers) and white, and its repetition rule
    /// (any-repeat-illegal, which replaces --repetition); as `set_option compat 0.3`.
    #[arg(long, value_name = "VERSION", value_parser = clap::builder::PossibleValuesParser::new(options::COMPAT.names()))]
    compat: Option<String>,
    /// Answer generate_move with a scripted player of the Fetlar strategy study instead of
    /// the search (src/players): aggressive, barricading-aggressive, barricading-cordon,
    /// king-centered (attackers), defensive, foot-in-the-door, fortification, kings-guard,
    /// mobile-king (defenders) or random (either side). Asked to move for the other side,
    /// a strategy plays the random player's move.
    #[arg(long, value_name = "NAME")]
    player: Option<Strategy>,
    #[arg(long, value_name = "N", help = options::LEVEL.flag_help(), value_parser = options::LEVEL.flag_parser())]
    level: Option<u64>,
    /// The seed of the random choices of --player, or of the strategies of a --level
    /// (default 0): the same seed and the same game give the same moves.
    #[arg(long, value_name = "N", requires = "seeded")]
    seed: Option<u64>,
}

impl EngineFlags {
    /// A session with these settings, or the message of the first invalid one.
    fn session(&self) -> Result<Session, hnefi::session::SessionError> {
        let mut s = Session::new();
        if let Some(source) = &self.rules {
            s.start_source(source.clone())?;
        }
        if let Some(mode) = self.repetition {
            s.set_repetition(mode);
        }
        if let Some(n) = self.move_limit {
            s.set_move_limit(n);
        }
        let options = [
            (
                self.threads,
                SearchOption::Threads as fn(u64) -> SearchOption,
            ),
            (self.hash_mb, SearchOption::HashMb),
            (self.depth, SearchOption::Depth),
            (self.movetime_ms, SearchOption::MovetimeMs),
            (self.nodes, SearchOption::Nodes),
            (self.multipv, SearchOption::MultiPv),
            (self.level, SearchOption::Level),
        ];
        for (value, make) in options {
            if let Some(v) = value {
                s.set_option(make(v))?;
            }
        }
        s.set_ponder(self.ponder);
        s.set_show_wdl(self.show_wdl);
        for &f in &self.with {
            s.set_feature(f, true);
        }
        for &f in &self.without {
            s.set_feature(f, false);
        }
        for w in &self.weight {
            s.set_weight(None, w)?;
        }
        for w in &self.attacker_weight {
            s.set_weight(Some(Role::Attacker), w)?;
        }
        for w in &self.defender_weight {
            s.set_weight(Some(Role::Defender), w)?;
        }
        if let Some(net) = &self.net {
            s.set_net(&net.to_string_lossy())?;
        }
        s.set_seed(self.seed.unwrap_or(0));
        s.set_player(self.player.map(|strategy| Player {
            strategy,
            seed: self.seed.unwrap_or(0),
        }));
        Ok(s)
    }
}

/// Search progress goes to stderr in the text protocol (docs/PROTOCOL.md); a closed
/// stderr is not an error. OTEP sends it to the host instead (OpenTafl never reads an
/// engine's stderr).
fn info_to_stderr(session: &mut Session) {
    session.set_info_sink(|info| {
        use std::io::Write;
        let _ = writeln!(io::stderr(), "info {info}");
    });
}

fn run_protocol(flags: &EngineFlags) -> ExitCode {
    let mut session = match flags.session() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    info_to_stderr(&mut session);
    session.set_colour(hnefi::protocol::colour::wanted());
    let mut engine = Engine::new(session);
    if let Some(name) = &flags.compat
        && let Err(e) = Dialect::from_name(name).and_then(|d| engine.set_dialect(d))
    {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    // A person who started hnefi by hand gets told what it waits for, and line editing;
    // a controller, whose stdin is a pipe, gets nothing extra and the bytes as sent.
    let result = if io::stdin().is_terminal() {
        eprintln!(
            "hnefi {}: waiting for protocol commands on stdin, one per line \
             (list_commands lists them, help NAME explains one, Tab completes a name, \
             Up recalls a line, Ctrl-C sends stop, quit ends; \
             see \"Playing in a terminal\" in README.md)",
            env!("CARGO_PKG_VERSION")
        );
        EditedInput::start()
            .map_err(io::Error::from)
            .and_then(|input| engine.run(input, io::stdout().lock()))
    } else {
        engine.run(io::BufReader::new(io::stdin()), io::stdout().lock())
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run_otep(flags: &EngineFlags) -> ExitCode {
    let session = match flags.session() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut engine = OtepEngine::new(session, flags.movetime_ms.unwrap_or(0));
    match engine.run(io::stdin().lock(), io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaf positions of the move tree (repetition off; see tests/data/perft.txt).
    Perft {
        /// Number of plies.
        depth: u32,
        /// Start from this OpenTafl position instead of the start position
        /// (e.g. "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/").
        #[arg(long, value_name = "OTN")]
        position: Option<String>,
        /// Side to move in --position.
        #[arg(long, value_name = "ROLE", default_value = "attacker")]
        to_move: Role,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// The rule family whose game is counted (copenhagen, hnefatafl-org, fetlar, brandubh,
        /// tablut, sea-battle or tawlbwrdd; docs/RULES.md section 17.13), or an OpenTafl
        /// rules string quoted as one argument ('dim:7 name:Brandub ... start:/3t3/...'),
        /// whose game is counted on its own board.
        #[arg(long, value_name = "NAME|STRING", default_value = "copenhagen")]
        rules: RulesSource,
        /// The board, 7 to 15 files: the family's game of that size, from its start
        /// position unless --position gives one of that size [default: the family's
        /// usual size; a rules string's game has only its own board].
        #[arg(long, value_name = "N")]
        board_size: Option<BoardSize>,
    },
    /// Play engine-vs-engine matches (text protocol, UCI-style, OpenTafl), refereed by the
    /// rules core.
    Match(matches::MatchArgs),
    /// The Fetlar strategy study's tables (its section 6): every attacking strategy and
    /// Random against every defending strategy and Random, in process, beside the paper's
    /// numbers (docs/fetlar-study.md).
    Study(hnefi::players::study::StudyArgs),
    /// Play on a hnefatafl.org server (hnefatafl-server 6.4.1's bot protocol) as a bot.
    Bot(hnefi::bot::cli::BotArgs),
    /// Play hnefi against itself at a node limit and write sampled positions with the
    /// game's result (training data for `hnefi tune`).
    Selfplay(selfplay::SelfplayArgs),
    /// Search the positions of recorded games and write them as samples with the
    /// recorded result (training data for `hnefi tune`).
    Label(label::LabelArgs),
    /// Fit the evaluation's weights to the samples of `hnefi selfplay` and `hnefi label`
    /// (Texel tuning).
    Tune(texel::TuneArgs),
    /// Fit the evaluation's learned correction (a small network over where the pieces
    /// stand, added to the hand-written terms) to the samples; `--net FILE` plays with it.
    Train(net::TrainArgs),
    /// Fit the win/draw/loss model of each game to the results of `hnefi selfplay`'s
    /// samples and measure it on the games held out (src/search/wdl.rs).
    WdlFit(wdl_fit::WdlFitArgs),
    /// Merge the sample files of a self-play run's shards (text or binary) into one
    /// binary file: games renumbered by shard, each position kept once.
    Merge(merge::MergeArgs),
    /// Annotate finished games: search every position and write each game back with one
    /// line per ply (its score, the engine's best move where it differs, and inaccuracy,
    /// mistake or blunder by the drop in the mover's win chance), then a summary per side
    /// (docs/analysis.md).
    Annotate(hnefi::tools::annotate::AnnotateArgs),
    /// Draw a position as SVG: the position after --moves (from the start or from
    /// --position), the restricted squares of the game's rules shaded, the last move and
    /// its captures marked (docs/analysis.md).
    Picture(hnefi::tools::picture::PictureArgs),
    /// Search the fixed bench positions (Copenhagen and Fetlar 11x11, hnefatafl.org's 7x7
    /// and 13x13) at one thread; print each suite's nodes (its signature) and nodes/s,
    /// then the totals.
    Bench {
        /// Run only this suite (copenhagen-11x11, fetlar-11x11, hnefatafl-org-7x7,
        /// hnefatafl-org-13x13).
        #[arg(long, value_name = "NAME")]
        suite: Option<String>,
        /// Search this many plies deeper than the bench's depths.
        #[arg(long, default_value_t = 0)]
        extra_depth: u32,
        /// Search threads (Lazy SMP). The node count is a signature at 1 only; at more,
        /// compare the time to the same depths.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
        /// Time to depth: search the positions at 1 thread and at `--threads` (default 2)
        /// side by side, this many times interleaved, and print the medians per depth
        /// (time, nodes, speed-up, work overhead) and the node rate per CPU second.
        #[arg(long, value_name = "REPS", value_parser = clap::value_parser!(u16).range(1..=1000))]
        ttd: Option<u16>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft {
            depth,
            position,
            to_move,
            divide,
            rules,
            board_size,
        }) => match rules.variant(board_size.unwrap_or_else(|| rules.usual_size())) {
            Ok(variant) => hnefi::tools::perft::main(hnefi::tools::perft::PerftJob {
                depth,
                position: position.as_deref(),
                to_move,
                divide,
                variant,
            }),
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
        Some(Command::Bench {
            suite,
            extra_depth,
            threads,
            ttd,
        }) => {
            let threads = match (ttd, threads) {
                (Some(_), 1) => 2,
                _ => usize::from(threads),
            };
            if let Err(e) = hnefi::tools::bench::main(
                extra_depth,
                threads,
                ttd.map(usize::from),
                suite.as_deref(),
            ) {
                eprintln!("hnefi bench: {e}");
                return ExitCode::from(2);
            }
            ExitCode::SUCCESS
        }
        Some(Command::Annotate(args)) => hnefi::tools::annotate::main(&args),
        Some(Command::Picture(args)) => hnefi::tools::picture::main(&args),
        Some(Command::Match(args)) => matches::main(&args),
        Some(Command::Study(args)) => hnefi::players::study::main(&args),
        Some(Command::Bot(args)) => hnefi::bot::cli::main(&args),
        Some(Command::Selfplay(args)) => selfplay::main(&args),
        Some(Command::Label(args)) => label::main(&args),
        Some(Command::Tune(args)) => texel::main(&args),
        Some(Command::Train(args)) => net::main(&args),
        Some(Command::Merge(args)) => merge::main(&args),
        Some(Command::WdlFit(args)) => wdl_fit::main(&args),
        None if cli.otep => run_otep(&cli.engine),
        None => run_protocol(&cli.engine),
    }
}
