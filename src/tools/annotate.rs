//! `hnefi annotate FILE`: finished games searched position by position, and written back
//! with one line per ply (docs/analysis.md).
//!
//! - Every position of a game is searched once for its side to move, with one thread, at
//!   `--depth` or `--movetime-ms` (tables cleared for each game, so that a game's
//!   annotation at a fixed depth depends neither on the machine nor on the games before
//!   it): that search gives the engine's best move and its score. The move played, when it
//!   is another, is searched too: the position after it, one ply shallower than the depth
//!   the search before it completed, by the mover's own searcher, negated. The engine
//!   weighs its evaluation for the side to move at a search's root (the attackers' weights
//!   are not the defenders'), so the other side's search of that position would score it
//!   on the other scale; each side has a searcher of its own, whose table keeps one scale.
//!   A move after which the rules end the game is scored by the result.
//! - The judgement ([`judgement`]) is the drop in the mover's expected result (the game's
//!   win/draw/loss model, [`WdlModel`]) from the best move to the move played; each ply
//!   shows the mover's chances before its move (`wdl W D L`, at the best move's score).
//! - `--graph FILE`: each game's evaluation graph ([`graph`]) written after its text; a
//!   graph that cannot be written counts the game as not annotated.
//! - Progress: when stderr is a terminal, one line there, redrawn after each search.
//! - SIGINT (Ctrl-C, [`interrupt`]): the search under way stops; the games annotated so
//!   far have been written, the game under way is not (exit status 130).
//! - The games come from a file of games one per line, hnefatafl.org's PGN export or an
//!   OpenTafl record ([`input`], [`pgn`], [`otg`]); `read_games` chooses the game they
//!   are played under.
//! - A line that is no game, or whose game does not replay under the rules, is named on
//!   stderr with the ply and the move at fault (and its line, in a game over several
//!   lines), and nothing is written for it; the other games are annotated. Exit status 0
//!   when every game was annotated, 1 when some could not be, 2 when none could be
//!   started (the file unreadable or without a game, no game of --rules on --board-size,
//!   an OpenTafl record without rules hnefi plays).

pub(crate) mod annotation;
pub(crate) mod input;
pub(crate) mod judgement;
pub(crate) mod otg;
pub(crate) mod pgn;
pub(crate) mod written;

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;

use crate::core::game::GameOf;

use crate::core::geometry::BoardSize;
use crate::core::moves::MoveOf;
use crate::core::notation::RecordMoveOf;
use crate::core::outcome::Status;
use crate::core::position::PositionOf;
use crate::core::preset::RulePreset;
use crate::core::record::ReplayErrorOf;
use crate::core::role::{ByRole, Role};
use crate::core::rules::RuleSet;
use crate::core::rules_source::RulesSource;
use crate::options::MAX_MOVETIME_MS;
use crate::search::wdl::WdlModel;
use crate::search::{Limits, MAX_DEPTH, Score, SearchGeometry, SearchResult, Searcher};
use crate::tools::game_args::GameArgs;
use crate::tools::picture::graph;
use crate::tools::{interrupt, stdout};

use annotation::{Annotation, Note};
use input::{FileGame, Format, GameLineError, ReadGame};
use judgement::judge;

/// The depth of every search when neither `--depth` nor `--movetime-ms` is given: a file
/// of a few games in seconds.
pub(crate) const DEFAULT_DEPTH: u32 = 4;

/// The transposition table of the searches, in MiB.
const HASH_MB: usize = 16;

/// The flags of `hnefi annotate`.
#[derive(Args, Debug, Clone)]
pub struct AnnotateArgs {
    /// The games, one per line: records lines as in tests/data/copenhagen.csv
    /// (moves,attacker_captures,defender_captures,result) or plain move lists (h1-h3
    /// f8-i8 ...), from the start position of the game of --rules on --board-size; or
    /// hnefatafl.org's PGN export (hnefatafl-org rules unless --rules says otherwise); or
    /// an OpenTafl game record (.otg), played under its own rules string.
    #[arg(value_name = "FILE")]
    pub(crate) file: PathBuf,
    /// Search every position to this depth in plies [default: 4, unless --movetime-ms
    /// is given].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_DEPTH)))]
    pub(crate) depth: Option<u32>,
    /// Search every position for this many milliseconds (with --depth, whichever ends
    /// first).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=MAX_MOVETIME_MS))]
    pub(crate) movetime_ms: Option<u64>,
    /// The game: --rules, --board-size, --repetition.
    #[command(flatten)]
    pub(crate) game: GameArgs,
    /// Also draw each game's evaluation graph (each side's win chance by ply) as SVG in
    /// this file; `{n}` in its name stands for the game's number, which a file of more
    /// than one game needs.
    #[arg(long, value_name = "FILE")]
    pub(crate) graph: Option<PathBuf>,
}

/// What stands for the game's number in `--graph`'s file name.
pub(crate) const GAME_NUMBER: &str = "{n}";

/// The file of game `number`'s graph: `pattern` with [`GAME_NUMBER`] replaced.
fn graph_file(pattern: &Path, number: usize) -> PathBuf {
    PathBuf::from(
        pattern
            .to_string_lossy()
            .replace(GAME_NUMBER, &number.to_string()),
    )
}

impl AnnotateArgs {
    /// The limits of every search.
    fn limits(&self) -> Limits {
        let movetime = self.movetime_ms.map(Duration::from_millis);
        Limits {
            depth: self.depth.or((movetime.is_none()).then_some(DEFAULT_DEPTH)),
            movetime,
            ..Limits::default()
        }
    }
}

/// Runs `hnefi annotate`.
pub fn main(args: &AnnotateArgs) -> ExitCode {
    let text = match std::fs::read_to_string(&args.file) {
        Ok(t) => t,
        Err(e) => return refused(&format!("cannot read {}: {e}", args.file.display())),
    };
    let (games, source, size) = match read_games(args, &text) {
        Ok(read) => read,
        Err(e) => return refused(&format!("{}: {e}", args.file.display())),
    };
    let variant = match source.variant(size) {
        Ok(v) => v,
        Err(e) => return refused(&e.to_string()),
    };
    let rules = args.game.rules_of(&variant);
    if games.is_empty() {
        return refused(&format!("no game in {}", args.file.display()));
    }
    if let Some(graph) = &args.graph
        && games.len() > 1
        && !graph.to_string_lossy().contains(GAME_NUMBER)
    {
        return refused(&format!(
            "--graph {} names one file, and {} has {} games: put {GAME_NUMBER} in the name for the game's number",
            graph.display(),
            args.file.display(),
            games.len()
        ));
    }
    let limits = args.limits();
    let graph = args.graph.as_deref();
    crate::with_size!(variant.size(), G => match variant.start_position::<G>() {
        Ok(start) => run::<G>(&games, start, rules, &limits, &WdlModel::of_game(&source, size), graph),
        Err(e) => refused(&e.to_string()),
    })
}

/// The games of the file's text, in its format ([`Format::of`]), and the game they are
/// of: `--rules` on `--board-size` for games one per line; for hnefatafl.org's export the
/// same, its rules hnefatafl.org's unless `--rules` says otherwise and its board the one
/// its moves are on unless `--board-size` says it; an OpenTafl record's own rules string.
fn read_games<'a>(
    args: &AnnotateArgs,
    text: &'a str,
) -> Result<(Vec<FileGame<'a>>, RulesSource, BoardSize), ReadError> {
    let given = args.game.source();
    Ok(match Format::of(text) {
        Format::Lines => {
            let games = input::game_lines(text).into_iter().map(FileGame::Line);
            let size = args.game.size_or_usual(&given);
            (games.collect(), given, size)
        }
        Format::HnefataflOrg => {
            let games = pgn::games(text);
            let source = match &args.game.rules {
                Some(rules) => rules.clone(),
                None if pgn::from_hnefatafl_org(text) => {
                    RulesSource::Family(RulePreset::HnefataflOrg)
                }
                None => given,
            };
            let size = args
                .game
                .board_size
                .unwrap_or_else(|| pgn::board_of(&games));
            (
                games.into_iter().map(FileGame::Written).collect(),
                source,
                size,
            )
        }
        Format::OpenTafl => {
            let otg = otg::read(text)?;
            let source = RulesSource::from_rules_string(otg.rules)?;
            let size = source.usual_size();
            (vec![FileGame::Written(otg.game)], source, size)
        }
    })
}

/// Why the games of a file cannot be read at all.
#[derive(Debug, thiserror::Error)]
enum ReadError {
    /// An OpenTafl game record without rules, or from a set position.
    #[error(transparent)]
    Otg(#[from] otg::OtgError),
    /// An OpenTafl game record whose rules string hnefi cannot play.
    #[error("the rules tag: {0}")]
    Rules(#[from] crate::core::rules_string::RulesStringError),
}

fn refused(message: &str) -> ExitCode {
    eprintln!("hnefi annotate: {message}");
    ExitCode::from(2)
}

/// Annotates the games of `lines` one after the other, each written when it is done.
fn run<G: SearchGeometry>(
    lines: &[FileGame<'_>],
    start: PositionOf<G>,
    rules: RuleSet,
    limits: &Limits,
    model: &WdlModel,
    graph: Option<&Path>,
) -> ExitCode {
    if let Err(e) = interrupt::install() {
        eprintln!(
            "hnefi annotate: warning: cannot handle Ctrl-C ({e}): an interrupt will end it at once"
        );
    }
    let mut progress = Progress::new(lines.len());
    let mut searchers = ByRole::new_with(searcher_of);
    let (mut annotated, mut failed) = (0, 0);
    for (number, file_game) in (1..).zip(lines) {
        let line = file_game.line();
        let annotation = input::read_file_game(file_game, start, rules).and_then(|read| {
            progress.game = (number, line);
            annotate(
                &read,
                (start, rules, model),
                limits,
                &mut searchers,
                &mut progress,
            )
            .map(|notes| {
                notes.map(|notes| Annotation {
                    number,
                    line,
                    result: read.result,
                    status: read.game.status(),
                    notes,
                })
            })
        });
        match annotation {
            Ok(Some(a)) => {
                progress.clear();
                stdout::text(&a.to_string());
                match graph.map(|pattern| write_graph(&a, &graph_file(pattern, number))) {
                    Some(Err(e)) => {
                        eprintln!("hnefi annotate: game {number} (line {line}): {e}");
                        failed += 1;
                    }
                    _ => annotated += 1,
                }
            }
            Ok(None) => {
                progress.clear();
                eprintln!(
                    "hnefi annotate: interrupted: {annotated} games annotated; game {number} (line {line}) and the {} after it not",
                    lines.len().saturating_sub(number)
                );
                return ExitCode::from(interrupt::EXIT_STATUS);
            }
            Err(e) => {
                progress.clear();
                eprintln!("hnefi annotate: game {number} (line {line}): {e}; not annotated");
                failed += 1;
            }
        }
    }
    if failed > 0 {
        eprintln!(
            "hnefi annotate: {failed} of {} games not annotated",
            lines.len()
        );
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// Writes the evaluation graph of `a` to `file`.
fn write_graph(a: &Annotation, file: &Path) -> Result<(), graph::GraphError> {
    let caption = format!(
        "game {} (line {}): {} plies, {}",
        a.number,
        a.line,
        a.notes.len(),
        a.status
    );
    graph::write(&caption, &graph::points(&a.notes), file)
}

/// The score of a move from the mover's point of view, given the score of the position
/// after it from the other side's: negated, a proven result one ply further away.
fn parent(child: Score) -> Score {
    match child {
        Score::Cp(c) => Score::Cp(c.saturating_neg()),
        Score::Win(n) => Score::Loss(n.saturating_add(1)),
        Score::Loss(n) => Score::Win(n.saturating_add(1)),
    }
}

/// The score, for `mover`, of a move after which the rules ended the game with `status`.
fn ended(status: Status, mover: Role) -> Score {
    match status.winner() {
        Some(winner) if winner == mover => Score::Win(1),
        Some(_) => Score::Loss(1),
        None => Score::Cp(0),
    }
}

/// Searches the current position of `game`, stopped by a SIGINT.
fn search<G: SearchGeometry>(
    game: &GameOf<G>,
    limits: &Limits,
    searcher: &mut Searcher,
) -> SearchResult<MoveOf<G>> {
    searcher.search(game, limits, interrupt::flag(), &mut |_| {})
}

/// The searcher of one side's moves: the evaluation of that side's searches (the engine
/// weighs the terms for the side to move at the root, `Weights::for_side`) at every node,
/// whoever is to move at its root, so that the position after a move of that side is
/// scored as the search before the move saw it.
fn searcher_of(side: Role) -> Searcher {
    let mut searcher = Searcher::new(1, HASH_MB);
    searcher.set_weights(side.opponent(), searcher.weights(side));
    searcher
}

/// The notes of one replayed game, or `None` when a SIGINT stopped it.
fn annotate<G: SearchGeometry>(
    read: &ReadGame<G>,
    (start, rules, model): (PositionOf<G>, RuleSet, &WdlModel),
    limits: &Limits,
    searchers: &mut ByRole<Searcher>,
    progress: &mut Progress,
) -> Result<Option<Vec<Note>>, GameLineError<G>> {
    for side in [Role::Attacker, Role::Defender] {
        searchers.get_mut(side).clear();
    }
    let moves = &read.record.moves;
    let mut game = GameOf::from_position(start, rules);
    let mut notes = Vec::with_capacity(moves.len());
    for (i, m) in moves.iter().enumerate() {
        progress.draw(i, moves.len());
        let mover = game.to_move();
        let searcher = searchers.get_mut(mover);
        let best = search(&game, limits, searcher);
        let pos = *game.position();
        // The record replayed once already: the move is legal.
        let captures = game.play(m.mv).map_err(|source| {
            GameLineError::Replay(ReplayErrorOf::Illegal {
                ply: i + 1,
                token: m.to_string(),
                source,
            })
        })?;
        let (score, best) = match best.best {
            Some(mv) if mv != m.mv => {
                let score = if game.status().is_over() {
                    ended(game.status(), mover)
                } else {
                    // The move as the search before it saw it: one ply shallower.
                    let limits = Limits {
                        depth: Some(best.depth.saturating_sub(1).max(1)),
                        ..*limits
                    };
                    parent(search(&game, &limits, searcher).score)
                };
                let mut p = pos;
                let captures = p.make_move(mv, &rules);
                let text = RecordMoveOf { mv, captures }.to_string();
                (score, Some((text, best.score)))
            }
            _ => (best.score, None),
        };
        if interrupt::requested() {
            return Ok(None);
        }
        let best_score = best.as_ref().map_or(score, |(_, s)| *s);
        let (drop, judgement) = match &best {
            Some((_, best_score)) => judge(*best_score, score, model, mover),
            None => (0.0, None),
        };
        notes.push(Note {
            ply: i + 1,
            side: mover,
            played: RecordMoveOf { mv: m.mv, captures }.to_string(),
            score,
            wdl: model.wdl(best_score, mover),
            best,
            drop,
            judgement,
        });
    }
    Ok(Some(notes))
}

/// The progress line on stderr, drawn only when it is a terminal.
struct Progress {
    on: bool,
    games: usize,
    /// The game under way: its number and line.
    game: (usize, usize),
    start: Instant,
    drawn: bool,
}

impl Progress {
    fn new(games: usize) -> Progress {
        Progress {
            on: io::stderr().is_terminal(),
            games,
            game: (0, 0),
            start: Instant::now(),
            drawn: false,
        }
    }

    /// Shows that the search of the position after `done` of `plies` plies starts.
    fn draw(&mut self, done: usize, plies: usize) {
        if self.on {
            let (number, line) = self.game;
            let mut err = io::stderr().lock();
            let _ = write!(
                err,
                "\r\x1b[2Kannotate: game {number} of {} (line {line}), ply {done} of {plies}, {:.1} s",
                self.games,
                self.start.elapsed().as_secs_f64()
            );
            let _ = err.flush();
            self.drawn = true;
        }
    }

    /// Clears the line before anything else is written.
    fn clear(&mut self) {
        if self.drawn {
            let _ = write!(io::stderr(), "\r\x1b[2K");
            self.drawn = false;
        }
    }
}
