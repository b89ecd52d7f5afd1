//! A checked match configuration: the engines, the schedule, the settings every game
//! shares, and the header that names the match in the `.meta` file.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::core::any_square::AnyMove;
use crate::core::berserk_game::BerserkGameOf;
use crate::core::berserk_variant::BerserkVariant;
use crate::core::geometry::BoardSize;
use crate::core::preset::RulePreset;
use crate::core::repetition::RepetitionMode;
use crate::core::rng::SplitMix64;
use crate::core::rules::RuleSet;
use crate::core::rules_source::{RulesSource, RulesSourceError};
use crate::options;
use crate::time_control::Fischer;

use super::args::MatchArgs;
use super::dialect::{self, EngineDialect};
use super::engine;
use super::error::MatchError;
use super::match_game::MatchGame;
use super::openings;
use super::play::Settings;
use super::relay;
use super::schedule::{Scheduled, gauntlet, one_sided_gauntlet, schedule};
use super::stats::Sprt;
use crate::time_control::TimeControl;

/// One engine of the match.
#[derive(Clone, Debug)]
pub(crate) struct EngineSpec {
    /// The spec as given (for the table).
    pub(crate) label: String,
    /// Its dialect.
    pub(crate) dialect: EngineDialect,
    /// Its command line, split into words.
    pub(crate) words: Vec<String>,
    /// Its time control: the match's, or its own (`--engine-tc`, time odds).
    pub(crate) time: TimeControl,
}

/// A checked match configuration.
#[derive(Clone, Debug)]
pub(crate) struct MatchConfig {
    /// The engines.
    pub(crate) engines: Vec<EngineSpec>,
    /// The schedule.
    pub(crate) schedule: Vec<Scheduled>,
    /// What the games share.
    pub(crate) settings: Settings,
    /// Games in parallel.
    pub(crate) concurrency: usize,
    /// The records file.
    pub(crate) out: Option<PathBuf>,
    /// Skip the games already in `out`.
    pub(crate) resume: bool,
    /// The optional SPRT.
    pub(crate) sprt: Option<Sprt>,
    /// The first engine against each of the others, not every pair.
    pub(crate) gauntlet: bool,
    /// The engine the rating list holds at 0.
    pub(crate) anchor: usize,
    /// A note for the table: the time control and rules.
    pub(crate) summary: String,
    /// The `.meta` header: engines, openings, time control and rules, which `--resume`
    /// must find unchanged.
    pub(crate) header: Vec<String>,
}

/// Random plies of each opening when neither `--openings` nor `--opening-plies` is given:
/// each game pair starts from a position of its own, so that engines that search
/// deterministically do not play one game again and again, and few enough plies that the
/// position stays close to the start (`--opening-plies 0` plays every game from it).
pub(crate) const DEFAULT_RANDOM_PLIES: usize = 4;

/// The longest deadline or margin accepted (longer values are cut to it), so that no
/// clock arithmetic can overflow.
const DAY_MS: u64 = 86_400_000;

fn parse_tc(s: &str) -> Result<TimeControl, MatchError> {
    let tc = options::parse_min_inc(s)?;
    Ok(TimeControl::Fischer(tc))
}

/// The repetition rule of the match: the flag, else the rule of the engines that have
/// one of their own (the reference engine's, OpenTafl's), else hnefi's default. Under an
/// OpenTafl rules string (`string`) an OTEP engine applies the string's rule, which is
/// the flag's default then: no rule of its own.
fn repetition(
    flag: Option<RepetitionMode>,
    engines: &[EngineSpec],
    string: bool,
) -> RepetitionMode {
    let own = |d: EngineDialect| match d {
        EngineDialect::Htp | EngineDialect::HtpTcp => {
            Some(RepetitionMode::DefenderAnyRepeatIllegal)
        }
        EngineDialect::Otep if string => None,
        EngineDialect::Otep => Some(RepetitionMode::ThirdOccurrenceMoverLoses),
        EngineDialect::Htp03 => Some(crate::protocol::compat03::REPETITION),
        EngineDialect::Hnefi | EngineDialect::Uci => None,
    };
    let mut wanted: Vec<(RepetitionMode, &str)> = engines
        .iter()
        .filter_map(|e| own(e.dialect).map(|m| (m, e.dialect.name())))
        .collect();
    wanted.dedup_by_key(|w| w.0);
    let chosen = flag.or(wanted.first().map(|w| w.0)).unwrap_or_default();
    for (mode, name) in wanted {
        if mode != chosen {
            eprintln!(
                "warning: {name} engines apply {mode}; --repetition {chosen} may make them refuse legal moves"
            );
        }
    }
    chosen
}

/// Applies the `--engine-tc N=TC` flags to the engines; true when any was given.
fn engine_times(flags: &[String], engines: &mut [EngineSpec]) -> Result<bool, MatchError> {
    let mut seen = vec![false; engines.len()];
    for flag in flags {
        let err = || MatchError::EngineTc(dialect::shown(flag));
        let (n, tc) = flag.split_once('=').ok_or_else(err)?;
        let i = n
            .trim()
            .parse::<usize>()
            .ok()
            .and_then(|n| n.checked_sub(1))
            .ok_or_else(err)?;
        let (Some(engine), Some(seen)) = (engines.get_mut(i), seen.get_mut(i)) else {
            return Err(err());
        };
        if std::mem::replace(seen, true) {
            return Err(err());
        }
        engine.time = match tc.trim().strip_suffix("ms") {
            Some(ms) => match ms.trim().parse::<u64>() {
                Ok(ms) if (1..=DAY_MS).contains(&ms) => {
                    TimeControl::MoveTime(Duration::from_millis(ms))
                }
                _ => return Err(err()),
            },
            None => parse_tc(tc).map_err(|_| err())?,
        };
    }
    Ok(!flags.is_empty())
}

/// The engines of `--engine`, each with its dialect and command line (their time set
/// later), and the checks on their number.
fn engines_of(a: &MatchArgs) -> Result<Vec<EngineSpec>, MatchError> {
    let mut engines = Vec::new();
    for spec in &a.engines {
        let (dialect, cmd) = EngineDialect::from_spec(spec);
        let words = engine::split_command(cmd)
            .ok_or_else(|| MatchError::EngineSpec(dialect::shown(spec)))?;
        engines.push(EngineSpec {
            label: spec.clone(),
            dialect,
            words,
            time: TimeControl::None,
        });
    }
    if engines.len() < 2 {
        return Err(MatchError::TooFewEngines);
    }
    let tcp_engines = engines
        .iter()
        .filter(|e| e.dialect == EngineDialect::HtpTcp)
        .count();
    if tcp_engines > 1 {
        return Err(MatchError::TooManyTcp);
    }
    Ok(engines)
}

/// The game the match plays: the rules' source, its variant on the board asked for, and
/// its rules with the match's repetition rule and move limit; refused when an engine's
/// dialect cannot be told that game.
fn game_of(
    a: &MatchArgs,
    engines: &[EngineSpec],
) -> Result<(RulesSource, MatchGame, RuleSet), MatchError> {
    let source = a.rules.clone().unwrap_or_default();
    if let Some(b) = source.berserk() {
        let (game, rules) = berserk_game_of(a, engines, b)?;
        return Ok((source, game, rules));
    }
    let variant = source
        .variant(a.board_size.unwrap_or_else(|| source.usual_size()))
        .map_err(|e| match e {
            RulesSourceError::Variant(v) => MatchError::Variant(v),
            other => MatchError::Rules(other),
        })?;
    if source.family().is_none() {
        every_engine_told_rules_strings(engines, variant.to_string())?;
    }
    // A rules string names its board, which an OTEP engine is told with the string.
    let string_for_otep = |d: EngineDialect| d == EngineDialect::Otep && source.family().is_none();
    if variant.size() != BoardSize::S11
        && let Some((i, e)) = engines
            .iter()
            .enumerate()
            .find(|(_, e)| !e.dialect.plays_other_boards() && !string_for_otep(e.dialect))
    {
        return Err(MatchError::Board {
            engine: i + 1,
            spec: e.label.clone(),
            dialect: e.dialect.name(),
            game: variant.to_string(),
        });
    }
    // For a family the runner tells an OTEP engine OpenTafl's Copenhagen string: any
    // other family's game needs its own string (--rules STRING).
    if source.family().is_some_and(|f| f != RulePreset::Copenhagen)
        && let Some((i, e)) = engines
            .iter()
            .enumerate()
            .find(|(_, e)| e.dialect == EngineDialect::Otep)
    {
        return Err(MatchError::OtepFamily {
            engine: i + 1,
            spec: e.label.clone(),
            game: variant.to_string(),
        });
    }
    let base = variant.rules();
    let repetition = repetition(
        a.repetition.or(a.rules.as_ref().map(|_| base.repetition)),
        engines,
        source.family().is_none(),
    );
    let rules = RuleSet {
        repetition,
        move_limit: match a.move_limit {
            Some(n) => (n > 0).then_some(n),
            None => base.move_limit,
        },
        ..base
    };
    Ok((source, MatchGame::Ordinary(variant), rules))
}

/// Refuses `game`, which only its rules string describes, when an engine's dialect
/// cannot be told one, naming the first such engine.
fn every_engine_told_rules_strings(engines: &[EngineSpec], game: String) -> Result<(), MatchError> {
    match engines
        .iter()
        .enumerate()
        .find(|(_, e)| !e.dialect.told_rules_strings())
    {
        Some((i, e)) => Err(MatchError::RulesString {
            engine: i + 1,
            spec: e.label.clone(),
            dialect: e.dialect.name(),
            game,
        }),
        None => Ok(()),
    }
}

/// The game of a Berserk rules string and its rules, the string's own: refused when an
/// engine cannot be told the string (hnefi's and OTEP engines can), and for the flags
/// that would change its rules or its openings, by name.
fn berserk_game_of(
    a: &MatchArgs,
    engines: &[EngineSpec],
    variant: &BerserkVariant,
) -> Result<(MatchGame, RuleSet), MatchError> {
    let size = variant.size();
    let name = format!("{} {size}x{size}", variant.name());
    let rules = variant.rules().rules;
    let refuse = |flag, why| MatchError::Berserk {
        flag,
        game: name.clone(),
        why,
    };
    if let Some(asked) = a.board_size.filter(|&s| s != size) {
        return Err(MatchError::Rules(RulesSourceError::OwnBoard {
            name: variant.name().to_string(),
            own: size,
            size: asked,
        }));
    }
    if a.repetition.is_some_and(|r| r != rules.repetition) {
        return Err(refuse(
            "--repetition",
            "its repetition rule is its string's (tfr), which hnefi's engines keep",
        ));
    }
    if a.move_limit.is_some_and(|n| n > 0) {
        return Err(refuse(
            "--move-limit",
            "it has no move limit, and hnefi's engines refuse set_rule move_limit in it",
        ));
    }
    if a.openings.is_some() {
        return Err(refuse(
            "--openings",
            "an openings file is read as ordinary records; give random openings (--opening-plies, --seed)",
        ));
    }
    every_engine_told_rules_strings(engines, name)?;
    let start = BerserkGameOf::start(variant, variant.first())?;
    Ok((
        MatchGame::Berserk {
            variant: variant.clone(),
            start: Box::new(start),
        },
        rules,
    ))
}

/// The match's time control (`--movetime-ms` or `--tc`), given to every engine, then the
/// engines' own (`--engine-tc`); true when any engine has its own.
fn times_of(a: &MatchArgs, engines: &mut [EngineSpec]) -> Result<(TimeControl, bool), MatchError> {
    let time = match (a.movetime_ms, &a.tc) {
        (Some(ms), _) if ms == 0 || options::MOVETIME_MS.check(ms).is_err() => {
            return Err(MatchError::MoveTime);
        }
        (Some(ms), _) => TimeControl::MoveTime(Duration::from_millis(ms)),
        (None, Some(tc)) => parse_tc(tc)?,
        (None, None) => TimeControl::None,
    };
    for e in engines.iter_mut() {
        e.time = time;
    }
    let odds = engine_times(&a.engine_tc, engines)?;
    if let Some(e) = engines
        .iter()
        .find(|e| e.dialect == EngineDialect::Uci && e.time == TimeControl::None)
    {
        return Err(MatchError::UciNeedsTime(e.label.clone()));
    }
    Ok((time, odds))
}

/// The openings: `--openings`' records cut to `--opening-plies` (shuffled by `--seed`), or
/// random plies from the start.
fn openings_of(
    a: &MatchArgs,
    game: &MatchGame,
    rules: RuleSet,
) -> Result<Vec<Vec<AnyMove>>, MatchError> {
    let variant = match game {
        MatchGame::Ordinary(v) => v,
        MatchGame::Berserk { start, .. } => {
            return Ok(match a.opening_plies.unwrap_or(DEFAULT_RANDOM_PLIES) {
                0 => Vec::new(),
                plies => {
                    openings::random_berserk(random_count(a), plies, start, a.seed.unwrap_or(0))
                }
            });
        }
    };
    Ok(match (&a.openings, a.opening_plies) {
        (Some(path), plies) => {
            let plies = plies.unwrap_or(8);
            let text = std::fs::read(path).map_err(|source| MatchError::ReadOpenings {
                path: path.clone(),
                source,
            })?;
            let text = String::from_utf8_lossy(&text);
            let mut list = openings::from_records(&text, plies, variant, rules)?;
            if let Some(seed) = a.seed {
                SplitMix64::new(seed).shuffle(&mut list);
            }
            list
        }
        (None, plies) => match plies.unwrap_or(DEFAULT_RANDOM_PLIES) {
            0 => Vec::new(),
            plies => openings::random(random_count(a), plies, variant, rules, a.seed.unwrap_or(0))?,
        },
    })
}

/// How many random openings a match needs: one a game pair, or one a game in a
/// one-sided gauntlet (which plays each opening once, not once a side).
fn random_count(a: &MatchArgs) -> usize {
    if a.e1_plays.is_some() {
        a.games
    } else {
        a.games.div_ceil(2)
    }
}

/// What the table's note and the `.meta` header say of a match.
struct Description {
    summary: String,
    header: Vec<String>,
}

/// The note and the header of a match. Their texts are those matches have always had
/// where nothing new was asked for (no odds, the 11x11 board, a round robin), so that the
/// records made before each choice existed still resume.
fn describe(
    a: &MatchArgs,
    engines: &[EngineSpec],
    (source, game, rules): (&RulesSource, &MatchGame, RuleSet),
    (time, odds): (TimeControl, bool),
    openings: &[Vec<AnyMove>],
) -> Description {
    let tc_text = |time: TimeControl| match time {
        TimeControl::None => format!("no clock (move deadline {} ms)", a.move_timeout_ms),
        TimeControl::MoveTime(t) => format!(
            "{} ms per move (+{} ms margin)",
            t.as_millis(),
            a.time_margin_ms
        ),
        TimeControl::Fischer(Fischer { base, increment }) => format!(
            "{}+{} (minutes+seconds, +{} ms margin)",
            base.as_secs_f64() / 60.0,
            increment.as_secs_f64(),
            a.time_margin_ms
        ),
    };
    let time_text = if odds {
        let each: Vec<String> = engines
            .iter()
            .enumerate()
            .map(|(i, e)| format!("E{} {}", i + 1, tc_text(e.time)))
            .collect();
        format!("per engine: {}", each.join(", "))
    } else {
        tc_text(time)
    };
    let opening_text = match (&a.openings, openings.first().map(Vec::len)) {
        (Some(p), Some(k)) => format!(
            "{} openings of {k} plies from {}{}",
            openings.len(),
            p.display(),
            a.seed.map_or(" in file order".to_string(), |s| format!(
                " shuffled by seed {s}"
            ))
        ),
        (None, Some(k)) if k > 0 => format!(
            "random openings of {k} plies (seed {})",
            a.seed.unwrap_or(0)
        ),
        _ => "start position".into(),
    };
    let rules_text = format!(
        "rules: {}; repetition: {}; move limit: {}",
        source,
        rules.repetition,
        rules
            .move_limit
            .map_or("none".to_string(), |n| format!("{n} plies"))
    );
    let size = game.size();
    let board_text = (size != BoardSize::S11).then(|| {
        format!(
            "board: {size}x{size} ({}'s game, the {}s first)",
            game.name(),
            game.first()
        )
    });
    let mut summary = format!("time: {time_text}; {rules_text}; openings: {opening_text}");
    if let Some(b) = &board_text {
        summary = format!("{b}; {summary}");
    }
    if a.gauntlet {
        summary.push_str("; gauntlet: E1 against each of the others");
    }
    if let Some(side) = a.e1_plays {
        summary.push_str(&format!(" (E1 the {} in every game)", side.plural()));
    }
    let mut header = vec!["# hnefi match".to_string()];
    for (i, e) in engines.iter().enumerate() {
        header.push(format!("# engine E{}: {}", i + 1, e.label));
    }
    header.push(format!("# openings: {opening_text}"));
    header.push(format!("# time: {time_text}"));
    header.push(format!("# {rules_text}"));
    if let Some(b) = &board_text {
        header.push(format!("# {b}"));
    }
    if a.gauntlet {
        header.push("# schedule: gauntlet (E1 against each of the others)".to_string());
    }
    if let Some(side) = a.e1_plays {
        header.push(format!("# sides: E1 the {} in every game", side.plural()));
    }
    Description { summary, header }
}

impl MatchConfig {
    /// Checks the flags, reads the openings and builds the schedule.
    pub(crate) fn from_args(a: &MatchArgs) -> Result<MatchConfig, MatchError> {
        let mut engines = engines_of(a)?;
        let anchor = a
            .anchor
            .checked_sub(1)
            .filter(|&i| i < engines.len())
            .ok_or(MatchError::Anchor(engines.len()))?;
        if a.games == 0 || a.games > 1_000_000 {
            return Err(MatchError::Games);
        }
        if a.concurrency == 0 || a.concurrency > 256 {
            return Err(MatchError::Concurrency);
        }
        let (source, game, rules) = game_of(a, &engines)?;
        let (time, odds) = times_of(a, &mut engines)?;
        let sprt = match &a.sprt {
            Some(s) if engines.len() != 2 => {
                return Err(MatchError::SprtEngines(dialect::shown(s)));
            }
            Some(s) => Some(s.parse::<Sprt>()?),
            None => None,
        };
        let openings = openings_of(a, &game, rules)?;
        let tcp = engines.iter().any(|e| e.dialect == EngineDialect::HtpTcp);
        let concurrency = if tcp && a.concurrency > 1 {
            eprintln!("note: an engine plays over the TCP relay (one port): --concurrency 1");
            1
        } else {
            a.concurrency
        };
        let listener = if tcp {
            let l = relay::bind().map_err(|source| MatchError::Relay {
                port: relay::PORT,
                source,
            })?;
            Some(Arc::new(l))
        } else {
            None
        };
        let Description { summary, header } = describe(
            a,
            &engines,
            (&source, &game, rules),
            (time, odds),
            &openings,
        );
        Ok(MatchConfig {
            schedule: if let Some(side) = a.e1_plays {
                one_sided_gauntlet(engines.len(), a.games, &openings, side)
            } else if a.gauntlet {
                gauntlet(engines.len(), a.games, &openings)
            } else {
                schedule(engines.len(), a.games, &openings)
            },
            engines,
            settings: Settings {
                source,
                game,
                rules,
                time,
                margin: Duration::from_millis(a.time_margin_ms.min(DAY_MS)),
                move_timeout: Duration::from_millis(a.move_timeout_ms.clamp(1, DAY_MS)),
                reply_timeout: Duration::from_millis(a.reply_timeout_ms.clamp(1, DAY_MS)),
                otep_settle: Duration::from_millis(a.otep_settle_ms.min(DAY_MS)),
                listener,
                debug: a.debug,
            },
            concurrency,
            out: a.out.clone(),
            resume: a.resume,
            sprt,
            gauntlet: a.gauntlet,
            anchor,
            summary,
            header,
        })
    }
}
