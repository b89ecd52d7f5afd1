//! `hnefi match`: engine-vs-engine matches over the text protocol, refereed by the rules
//! core.
//!
//! - [`engine`]: engine processes with deadline-bounded reads, killed on drop.
//! - [`dialect`]: hnefi's framing, the reference engine's, and its TCP relay mode.
//! - [`play`]: one game; [`openings`]: opening lines; [`records`]: the CSV output and
//!   `--resume`; [`stats`]: score, Elo, SPRT; [`relay`]: the TCP relay socket.
//!
//! Every engine pair plays `--games` games, alternating sides; the `k`-th game of a pair
//! uses opening `k / 2`, so each opening is played once with each engine as the attackers.
//! Results are written to the records file in schedule order (a game that finishes early
//! waits for the ones before it), so `--resume` can skip the first lines' games.

pub mod dialect;
pub mod engine;
pub mod openings;
pub mod play;
pub mod records;
pub mod relay;
pub mod stats;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::{IsTerminal, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use clap::Args;

use crate::core::game::{RepetitionMode, RuleSet};
use crate::core::moves::Move;
use crate::core::preset::RulePreset;
use crate::core::role::Role;

use dialect::Dialect;
use play::{Player, Settings, TimeControl};
use records::GameResult;
use stats::{Sprt, SprtState, Wdl};

/// The flags of `hnefi match`.
#[derive(Args, Debug, Clone)]
pub struct MatchArgs {
    /// An engine command line, given twice or more (every pair plays). Prefix `htp:` for the
    /// reference engine's dialect (`htp:hnefatafl-text-protocol`), `htp-tcp:` to start the
    /// reference engine in TCP mode with the runner as its relay on 127.0.0.1:49152
    /// (`htp-tcp:hnefatafl-text-protocol --host 127.0.0.1 --ai basic --depth 2`).
    #[arg(long = "engine", value_name = "CMD", required = true)]
    pub engines: Vec<String>,
    /// Games per engine pair (sides alternate).
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub games: usize,
    /// Time per move in milliseconds (sent to hnefi engines as `set_option movetime_ms`).
    #[arg(long, value_name = "MS", conflicts_with = "tc")]
    pub movetime_ms: Option<u64>,
    /// Fischer clock: minutes per side + seconds added per move, e.g. `1+0.5`.
    #[arg(long, value_name = "MIN+INC")]
    pub tc: Option<String>,
    /// A records file (CSV like tests/data/copenhagen.csv, or one move list per line)
    /// whose games' first plies are the openings.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Plies of each opening (default 8 with --openings; without it, K random legal
    /// plies from --seed).
    #[arg(long, value_name = "K")]
    pub opening_plies: Option<usize>,
    /// Games played at the same time (1 when an engine plays over TCP).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub concurrency: usize,
    /// Append each game's record to this CSV file (and reasons to FILE.meta).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Seed for random openings and for the order of the openings file.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// A named rule set: copenhagen or hnefatafl-org (the hnefatafl.org server's rules);
    /// --repetition and --move-limit override its parts. Sent to hnefi engines.
    #[arg(long, value_name = "PRESET")]
    pub rules: Option<RulePreset>,
    /// Repetition rule (default defender-third-illegal, or the --rules preset's;
    /// defender-any-repeat-illegal, the reference engine's rule, when an htp engine plays).
    #[arg(long, value_name = "MODE")]
    pub repetition: Option<RepetitionMode>,
    /// A draw after this many plies (0 = no limit).
    #[arg(long, value_name = "PLIES")]
    pub move_limit: Option<u32>,
    /// Continue the match in --out: skip the games already recorded there (use the same
    /// flags as before).
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Stop early by a sequential probability ratio test on the first engine vs the
    /// second: `elo0,elo1,alpha,beta`, e.g. `0,20,0.05,0.05`.
    #[arg(long, value_name = "ELO0,ELO1,ALPHA,BETA")]
    pub sprt: Option<String>,
    /// How far over its time (per move or clock) an engine may go before it loses.
    #[arg(long, value_name = "MS", default_value_t = 200)]
    pub time_margin_ms: u64,
    /// Deadline of a move when there is no time control.
    #[arg(long, value_name = "MS", default_value_t = 120_000)]
    pub move_timeout_ms: u64,
    /// Deadline of the reply to any other command (and of the relay connection).
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub reply_timeout_ms: u64,
    /// Log every line sent to and received from the engines on stderr (`E1> ...`,
    /// `E1< ...`), and let the engines' own stderr through.
    #[arg(long)]
    pub debug: bool,
}

/// One engine of the match.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// The spec as given (for the table).
    pub label: String,
    /// Its dialect.
    pub dialect: Dialect,
    /// Its command line, split into words.
    pub words: Vec<String>,
}

/// A checked match configuration.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The engines.
    pub engines: Vec<EngineSpec>,
    /// The schedule: attacker and defender engine and opening of each game.
    pub schedule: Vec<(usize, usize, Vec<Move>)>,
    /// What the games share.
    pub settings: Settings,
    /// Games in parallel.
    pub concurrency: usize,
    /// The records file.
    pub out: Option<PathBuf>,
    /// Skip the games already in `out`.
    pub resume: bool,
    /// The optional SPRT.
    pub sprt: Option<Sprt>,
    /// A note for the table: the time control and rules.
    pub summary: String,
}

/// The longest deadline or margin accepted (longer values are cut to it), so that no
/// clock arithmetic can overflow.
const DAY_MS: u64 = 86_400_000;

fn parse_tc(s: &str) -> Result<TimeControl, String> {
    let err = || {
        format!(
            "invalid --tc '{}': expected MIN+INC like 1+0.5",
            dialect::shown(s)
        )
    };
    let (min, inc) = s.split_once('+').unwrap_or((s, "0"));
    let min: f64 = min.trim().parse().map_err(|_| err())?;
    let inc: f64 = inc.trim().parse().map_err(|_| err())?;
    if !(min > 0.0 && min <= 10_000.0 && (0.0..=3600.0).contains(&inc)) {
        return Err(err());
    }
    let base = Duration::try_from_secs_f64(min * 60.0).map_err(|_| err())?;
    let increment = Duration::try_from_secs_f64(inc).map_err(|_| err())?;
    Ok(TimeControl::Fischer { base, increment })
}

impl MatchConfig {
    /// Checks the flags, reads the openings and builds the schedule.
    pub fn from_args(a: &MatchArgs) -> Result<MatchConfig, String> {
        let mut engines = Vec::new();
        for spec in &a.engines {
            let (dialect, cmd) = Dialect::from_spec(spec);
            let words = engine::split_command(cmd)
                .ok_or_else(|| format!("invalid --engine '{}'", dialect::shown(spec)))?;
            engines.push(EngineSpec {
                label: spec.clone(),
                dialect,
                words,
            });
        }
        if engines.len() < 2 {
            return Err("give --engine at least twice".into());
        }
        if a.games == 0 || a.games > 1_000_000 {
            return Err("--games must be 1 to 1000000".into());
        }
        if a.concurrency == 0 || a.concurrency > 256 {
            return Err("--concurrency must be 1 to 256".into());
        }
        let htp = engines.iter().any(|e| e.dialect != Dialect::Hnefi);
        let tcp_engines = engines
            .iter()
            .filter(|e| e.dialect == Dialect::HtpTcp)
            .count();
        if tcp_engines > 1 {
            return Err("only one engine can play over the TCP relay".into());
        }
        let repetition = match a.repetition {
            Some(m) => {
                if htp && m != RepetitionMode::DefenderAnyRepeatIllegal {
                    eprintln!(
                        "warning: the reference engine applies defender-any-repeat-illegal (unless started with --repeat-moves); --repetition {m} may make it refuse legal moves"
                    );
                }
                m
            }
            None => match a.rules {
                Some(preset) => preset.rules().repetition,
                None if htp => RepetitionMode::DefenderAnyRepeatIllegal,
                None => RepetitionMode::default(),
            },
        };
        let base = a.rules.unwrap_or_default().rules();
        let rules = RuleSet {
            repetition,
            move_limit: match a.move_limit {
                Some(n) => (n > 0).then_some(n),
                None => base.move_limit,
            },
            ..base
        };
        let time = match (a.movetime_ms, &a.tc) {
            (Some(ms), _) if ms == 0 || ms > DAY_MS => {
                return Err("--movetime-ms must be 1 to 86400000".into());
            }
            (Some(ms), _) => TimeControl::MoveTime(Duration::from_millis(ms)),
            (None, Some(tc)) => parse_tc(tc)?,
            (None, None) => TimeControl::None,
        };
        let sprt = match &a.sprt {
            Some(s) if engines.len() != 2 => {
                return Err(format!(
                    "--sprt {} needs exactly two engines",
                    dialect::shown(s)
                ));
            }
            Some(s) => Some(s.parse::<Sprt>()?),
            None => None,
        };
        let pairs: Vec<(usize, usize)> = (0..engines.len())
            .flat_map(|i| (i + 1..engines.len()).map(move |j| (i, j)))
            .collect();
        let openings_needed = a.games.div_ceil(2);
        let openings = match (&a.openings, a.opening_plies) {
            (Some(path), plies) => {
                let plies = plies.unwrap_or(8);
                let text = std::fs::read(path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                let text = String::from_utf8_lossy(&text);
                let mut list = openings::from_records(&text, plies, rules)?;
                if let Some(seed) = a.seed {
                    openings::Rng::new(seed).shuffle(&mut list);
                }
                list
            }
            (None, Some(plies)) if plies > 0 => {
                openings::random(openings_needed, plies, rules, a.seed.unwrap_or(0))
            }
            (None, _) => vec![Vec::new()],
        };
        let mut schedule = Vec::with_capacity(pairs.len() * a.games);
        for &(i, j) in &pairs {
            for k in 0..a.games {
                let (att, def) = if k % 2 == 0 { (i, j) } else { (j, i) };
                let opening = openings
                    .get((k / 2) % openings.len().max(1))
                    .cloned()
                    .unwrap_or_default();
                schedule.push((att, def, opening));
            }
        }
        let concurrency = if tcp_engines > 0 && a.concurrency > 1 {
            eprintln!("note: an engine plays over the TCP relay (one port): --concurrency 1");
            1
        } else {
            a.concurrency
        };
        let listener = if tcp_engines > 0 {
            Some(Arc::new(relay::bind()?))
        } else {
            None
        };
        let time_text = match time {
            TimeControl::None => format!("no clock (move deadline {} ms)", a.move_timeout_ms),
            TimeControl::MoveTime(t) => format!(
                "{} ms per move (+{} ms margin)",
                t.as_millis(),
                a.time_margin_ms
            ),
            TimeControl::Fischer { base, increment } => format!(
                "{}+{} (minutes+seconds, +{} ms margin)",
                base.as_secs_f64() / 60.0,
                increment.as_secs_f64(),
                a.time_margin_ms
            ),
        };
        let opening_text = match (&a.openings, openings.first().map(Vec::len)) {
            (Some(p), Some(k)) => format!(
                "{} openings of {k} plies from {}",
                openings.len(),
                p.display()
            ),
            (None, Some(k)) if k > 0 => format!(
                "random openings of {k} plies (seed {})",
                a.seed.unwrap_or(0)
            ),
            _ => "start position".into(),
        };
        let summary = format!(
            "time: {time_text}; rules: {}; repetition: {repetition}; move limit: {}; openings: {opening_text}",
            a.rules.unwrap_or_default(),
            rules
                .move_limit
                .map_or("none".to_string(), |n| format!("{n} plies"))
        );
        Ok(MatchConfig {
            engines,
            schedule,
            settings: Settings {
                rules,
                time,
                margin: Duration::from_millis(a.time_margin_ms.min(DAY_MS)),
                move_timeout: Duration::from_millis(a.move_timeout_ms.clamp(1, DAY_MS)),
                reply_timeout: Duration::from_millis(a.reply_timeout_ms.clamp(1, DAY_MS)),
                listener,
                debug: a.debug,
            },
            concurrency,
            out: a.out.clone(),
            resume: a.resume,
            sprt,
            summary,
        })
    }
}

/// The `hnefi match` command: runs the match and prints the table; exit status 2 for bad
/// flags or files.
pub fn main(args: &MatchArgs) -> ExitCode {
    let config = match MatchConfig::from_args(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    match run(&config) {
        Ok(results) => {
            print!("{}", report(&config, &results));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// A progress line on stderr, drawn only when stderr is a terminal.
struct Progress {
    enabled: bool,
    start: Instant,
    total: usize,
    resumed: usize,
}

impl Progress {
    fn draw(&self, results: &[GameResult], engines: usize) {
        if !self.enabled {
            return;
        }
        let done = results.len();
        let width = 30;
        let filled = (done * width).checked_div(self.total).unwrap_or(width);
        let bar: String = (0..width)
            .map(|i| if i < filled { '#' } else { '-' })
            .collect();
        let elapsed = self.start.elapsed().as_secs();
        let played_now = done.saturating_sub(self.resumed);
        let eta = if played_now > 0 {
            let per = elapsed as f64 / played_now as f64;
            format!(
                "~{} left",
                clock_text((per * (self.total - done.min(self.total)) as f64) as u64)
            )
        } else {
            "~? left".into()
        };
        let mut score = String::new();
        if engines == 2 {
            let pts: f64 = results.iter().filter_map(|r| r.score_of(0)).sum();
            let _ = write!(score, "  E1 {pts}-{}", done as f64 - pts);
        }
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r\x1b[2K[{bar}] {done}/{}{score}  {} elapsed, {eta}",
            self.total,
            clock_text(elapsed)
        );
        let _ = err.flush();
    }

    fn finish(&self) {
        if self.enabled {
            let _ = writeln!(std::io::stderr());
        }
    }
}

fn clock_text(secs: u64) -> String {
    if secs >= 3600 {
        format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
    } else {
        format!("{}:{:02}", secs / 60, secs % 60)
    }
}

/// E`i`'s mean score in each complete game pair against E`j`: two games of the schedule
/// in a row, from the same opening, with the sides swapped.
pub fn pair_means(config: &MatchConfig, results: &[GameResult], i: usize, j: usize) -> Vec<f64> {
    let games: Vec<&GameResult> = results
        .iter()
        .filter(|r| r.score_of(i).is_some() && r.score_of(j).is_some())
        .collect();
    let opening = |r: &GameResult| config.schedule.get(r.index).map(|g| &g.2);
    let mut means = Vec::new();
    let mut k = 0;
    while let (Some(a), Some(b)) = (games.get(k), games.get(k + 1)) {
        let paired = b.index == a.index + 1
            && a.attacker == b.defender
            && a.defender == b.attacker
            && opening(a).is_some()
            && opening(a) == opening(b);
        if let (true, Some(x), Some(y)) = (paired, a.score_of(i), b.score_of(i)) {
            means.push((x + y) / 2.0);
            k += 2;
        } else {
            k += 1;
        }
    }
    means
}

/// What the SPRT counts: E1's pair means against E2 when the engines meet in pairs
/// (two games or more each), else E1's game scores.
fn sprt_units(config: &MatchConfig, results: &[GameResult]) -> (Vec<f64>, &'static str) {
    let meetings = config
        .schedule
        .iter()
        .filter(|(a, d, _)| (*a, *d) == (0, 1) || (*a, *d) == (1, 0))
        .count();
    if meetings >= 2 {
        (pair_means(config, results, 0, 1), "pentanomial")
    } else {
        (
            results.iter().filter_map(|r| r.score_of(0)).collect(),
            "trinomial",
        )
    }
}

/// Plays the match (the games not yet in the records file when resuming) and returns
/// every game's result in schedule order.
pub fn run(config: &MatchConfig) -> Result<Vec<GameResult>, String> {
    let sides: Vec<(usize, usize)> = config.schedule.iter().map(|(a, d, _)| (*a, *d)).collect();
    let mut results: Vec<GameResult> = Vec::new();
    if let Some(out) = &config.out {
        if config.resume {
            results = records::read_done(out, &sides)?;
        } else if std::fs::metadata(out).is_ok_and(|m| m.len() > 0) {
            return Err(format!(
                "{} exists: pass --resume to continue it, or choose another --out",
                out.display()
            ));
        }
    }
    let mut writer = match &config.out {
        Some(out) => Some(
            records::Writer::open(out)
                .map_err(|e| format!("cannot write {}: {e}", out.display()))?,
        ),
        None => None,
    };
    let first = results.len();
    let progress = Progress {
        enabled: std::io::stderr().is_terminal(),
        start: Instant::now(),
        total: config.schedule.len(),
        resumed: first,
    };
    let stop = Arc::new(AtomicBool::new(false));
    if let Some(t) = &config.sprt
        && t.state(&sprt_units(config, &results).0) != SprtState::Continue
    {
        stop.store(true, Ordering::SeqCst);
    }
    let next = Arc::new(AtomicUsize::new(first));
    let (tx, rx) = mpsc::channel::<GameResult>();
    let mut write_error = None;
    thread::scope(|scope| {
        for _ in 0..config
            .concurrency
            .min(config.schedule.len().saturating_sub(first))
        {
            let tx = tx.clone();
            let (next, stop) = (Arc::clone(&next), Arc::clone(&stop));
            scope.spawn(move || worker(config, &next, &stop, &tx));
        }
        drop(tx);
        let mut pending: BTreeMap<usize, GameResult> = BTreeMap::new();
        let mut next_write = first;
        progress.draw(&results, config.engines.len());
        loop {
            match rx.recv_timeout(Duration::from_secs(1)) {
                Ok(r) => {
                    pending.insert(r.index, r);
                    while let Some(r) = pending.remove(&next_write) {
                        if let Some(w) = writer.as_mut()
                            && let Err(e) = w.append(&r)
                        {
                            write_error.get_or_insert_with(|| e.to_string());
                            stop.store(true, Ordering::SeqCst);
                        }
                        results.push(r);
                        next_write += 1;
                    }
                    if let Some(t) = &config.sprt
                        && t.state(&sprt_units(config, &results).0) != SprtState::Continue
                    {
                        stop.store(true, Ordering::SeqCst);
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            progress.draw(&results, config.engines.len());
        }
        // Games after a gap (only when stopped early) are reported but not written, so
        // that the file stays a prefix of the schedule.
        results.extend(pending.into_values());
    });
    progress.finish();
    if let Some(e) = write_error {
        return Err(format!("writing the records failed: {e}"));
    }
    Ok(results)
}

fn worker(
    config: &MatchConfig,
    next: &AtomicUsize,
    stop: &AtomicBool,
    tx: &mpsc::Sender<GameResult>,
) {
    let mut players: Vec<Player> = config
        .engines
        .iter()
        .enumerate()
        .map(|(i, e)| Player {
            label: format!("E{}", i + 1),
            dialect: e.dialect,
            words: e.words.clone(),
            process: None,
        })
        .collect();
    while !stop.load(Ordering::SeqCst) {
        let index = next.fetch_add(1, Ordering::SeqCst);
        let Some((att, def, opening)) = config.schedule.get(index) else {
            break;
        };
        let (a, d) = (*att, *def);
        let Some([pa, pd]) = two_mut(&mut players, a, d) else {
            break;
        };
        let outcome = play::play_game([pa, pd], opening, &config.settings);
        let record = records::record_line(&outcome.game, outcome.winner);
        let result = GameResult {
            index,
            attacker: a,
            defender: d,
            winner: outcome.winner,
            reason: outcome.reason,
            detail: outcome.detail,
            record,
        };
        if tx.send(result).is_err() {
            break;
        }
    }
    for p in &mut players {
        p.stop();
    }
}

/// Two distinct elements of a slice, mutably.
fn two_mut<T>(v: &mut [T], a: usize, b: usize) -> Option<[&mut T; 2]> {
    if a == b {
        return None;
    }
    let (lo, hi) = (a.min(b), a.max(b));
    let (left, right) = v.split_at_mut(hi);
    let (x, y) = (left.get_mut(lo)?, right.first_mut()?);
    Some(if a < b { [x, y] } else { [y, x] })
}

/// The result table: per engine wins/draws/losses overall and per side, score and Elo
/// per pair, the reasons games ended, and the SPRT state.
pub fn report(config: &MatchConfig, results: &[GameResult]) -> String {
    let mut s = String::new();
    let n = config.engines.len();
    let _ = writeln!(s, "Match: {} games; {}", results.len(), config.summary);
    for (i, e) in config.engines.iter().enumerate() {
        let _ = writeln!(s, "  E{}: {} ({})", i + 1, e.label, e.dialect.name());
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "{:<6} {:>5} {:>5} {:>5} {:>6} {:>7} {:>6}  {:>14} {:>14}",
        "engine",
        "games",
        "wins",
        "draws",
        "losses",
        "points",
        "score",
        "as attacker",
        "as defender"
    );
    for i in 0..n {
        let (mut all, mut att, mut def) = (Wdl::default(), Wdl::default(), Wdl::default());
        for r in results {
            if let Some(x) = r.score_of(i) {
                all.add(x);
                if r.attacker == i {
                    att.add(x)
                } else {
                    def.add(x)
                }
            }
        }
        let pct = if all.games() > 0 {
            format!("{:.1}%", 100.0 * all.points() / f64::from(all.games()))
        } else {
            "-".into()
        };
        let _ = writeln!(
            s,
            "{:<6} {:>5} {:>5} {:>5} {:>6} {:>7} {:>6}  {:>14} {:>14}",
            format!("E{}", i + 1),
            all.games(),
            all.wins,
            all.draws,
            all.losses,
            all.points(),
            pct,
            att.to_string(),
            def.to_string()
        );
    }
    let _ = writeln!(s, "(W-D-L per side)");
    let _ = writeln!(s);
    for i in 0..n {
        for j in i + 1..n {
            let scores: Vec<f64> = results
                .iter()
                .filter(|r| r.score_of(j).is_some())
                .filter_map(|r| r.score_of(i))
                .collect();
            match stats::elo_estimate(&scores) {
                Some(e) => {
                    let _ = writeln!(
                        s,
                        "E{} vs E{}: {} / {} ({:.1}%), Elo {:+.1} (95%: {:+.1} to {:+.1})",
                        i + 1,
                        j + 1,
                        scores.iter().sum::<f64>(),
                        scores.len(),
                        100.0 * e.score,
                        e.elo,
                        e.low,
                        e.high
                    );
                }
                None => {
                    let _ = writeln!(s, "E{} vs E{}: no games", i + 1, j + 1);
                }
            }
            let pairs = pair_means(config, results, i, j);
            if let Some(e) = stats::elo_estimate(&pairs) {
                let [p0, p1, p2, p3, p4] = stats::pentanomial(&pairs);
                let _ = writeln!(
                    s,
                    "  in {} game pairs (one opening, sides swapped; E{} scored 0/0.5/1/1.5/2 in {p0}/{p1}/{p2}/{p3}/{p4}): Elo {:+.1} (95%: {:+.1} to {:+.1})",
                    pairs.len(),
                    i + 1,
                    e.elo,
                    e.low,
                    e.high
                );
            }
        }
    }
    let _ = writeln!(s);
    let mut endings: BTreeMap<&str, [u32; 3]> = BTreeMap::new();
    for r in results {
        let e = endings.entry(r.reason.as_str()).or_default();
        match r.winner {
            Some(Role::Attacker) => e[0] += 1,
            Some(Role::Defender) => e[1] += 1,
            None => e[2] += 1,
        }
    }
    let _ = writeln!(
        s,
        "{:<16} {:>6} {:>14} {:>14} {:>6}",
        "ending", "games", "attackers won", "defenders won", "draws"
    );
    for (reason, [a, d, dr]) in &endings {
        let _ = writeln!(
            s,
            "{:<16} {:>6} {:>14} {:>14} {:>6}",
            reason,
            a + d + dr,
            a,
            d,
            dr
        );
    }
    let faults: BTreeSet<String> = results
        .iter()
        .filter(|r| !r.detail.is_empty())
        .map(|r| format!("  game {} ({}): {}", r.index + 1, r.reason, r.detail))
        .collect();
    if !faults.is_empty() {
        let _ = writeln!(s, "adjudications:");
        for f in faults.iter().take(20) {
            let _ = writeln!(s, "{f}");
        }
        if faults.len() > 20 {
            let _ = writeln!(s, "  ... and {} more", faults.len() - 20);
        }
    }
    if let Some(t) = &config.sprt {
        let (scores, model) = sprt_units(config, results);
        let (low, high) = t.bounds();
        let state = match t.state(&scores) {
            SprtState::Continue => "undecided",
            SprtState::AcceptH1 => "H1 accepted (E1 is stronger by elo1 or more)",
            SprtState::AcceptH0 => "H0 accepted (E1 is not stronger by elo0 or more)",
        };
        let _ = writeln!(
            s,
            "\nSPRT ({model}, elo0 {} elo1 {} alpha {} beta {}): LLR {:.2} in ({:.2}, {:.2}): {state}",
            t.elo0,
            t.elo1,
            t.alpha,
            t.beta,
            t.llr(&scores),
            low,
            high
        );
    }
    s
}
