//! `hnefi picture`: a position drawn as SVG (README.md, docs/analysis.md), the position
//! after `--moves` from the start of the game of `--rules` on `--board-size`, or from an
//! OpenTafl `--position`: the restricted squares of that game's rules shaded, the last
//! move and its captures marked.
//!
//! - The moves are a record's moves field (`h1-h3 f8-i8 g3-e3xe2`), replayed as
//!   `hnefi annotate` replays a move list: each legal in its position, listed captures the
//!   move's. The first that is not is named with its ply, and nothing is written (exit
//!   status 2).
//! - [`scene`] is what the picture shows, [`board`] draws it; [`graph`] draws the
//!   evaluation graph of an annotated game (`hnefi annotate --graph`).

pub(crate) mod board;
pub(crate) mod graph;
pub(crate) mod scene;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use thiserror::Error;

use crate::core::any_game::AnyReplayError;
use crate::core::game::GameOf;
use crate::core::geometry::Geometry;
use crate::core::notation::{PositionError, parse_opentafl_with};
use crate::core::position::PositionOf;
use crate::core::record::{GameRecordError, GameRecordOf};
use crate::core::role::Role;
use crate::core::rules::RuleSet;
use crate::core::rules_source::RulesSourceError;
use crate::core::variant::{Variant, VariantError};
use crate::tools::game_args::GameArgs;
use crate::tools::stdout;

use scene::Scene;

/// The flags of `hnefi picture`.
#[derive(Args, Debug, Clone)]
pub struct PictureArgs {
    /// The moves played before the position drawn, as a record's moves field ('h1-h3
    /// f8-i8 g3-e3xe2', quoted as one argument), from the start position or from
    /// --position; the last is marked [default: none].
    #[arg(long, value_name = "MOVES", default_value = "")]
    pub(crate) moves: String,
    /// Start from this OpenTafl position instead of the game's start position (e.g.
    /// "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/").
    #[arg(long, value_name = "OTN")]
    pub(crate) position: Option<String>,
    /// The side to move first, in --position or the start position [default: the game's
    /// first mover].
    #[arg(long, value_name = "ROLE")]
    pub(crate) to_move: Option<Role>,
    /// The game: --rules, --board-size, --repetition. The rules' restricted squares are
    /// shaded.
    #[command(flatten)]
    pub(crate) game: GameArgs,
    /// Write the SVG to this file [default: stdout].
    #[arg(long, value_name = "FILE")]
    pub(crate) out: Option<PathBuf>,
}

/// Why no picture was drawn.
#[derive(Debug, Error)]
pub(crate) enum PictureError {
    /// The rules have no game on the board asked for.
    #[error(transparent)]
    Rules(#[from] RulesSourceError),
    /// The game's start position cannot be made.
    #[error(transparent)]
    Variant(#[from] VariantError),
    /// --position is no position of the board.
    #[error("--position: {0}")]
    Position(#[from] PositionError),
    /// --moves is no moves field.
    #[error("--moves: {0}")]
    Moves(#[from] GameRecordError),
    /// A move of --moves does not replay (boxed, as in
    /// [`AnyGameError`](crate::core::any_game::AnyGameError)).
    #[error("--moves: {0}")]
    Replay(Box<AnyReplayError>),
    /// The picture cannot be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
}

impl From<AnyReplayError> for PictureError {
    fn from(e: AnyReplayError) -> PictureError {
        PictureError::Replay(Box::new(e))
    }
}

/// Runs `hnefi picture`.
pub fn main(args: &PictureArgs) -> ExitCode {
    match picture(args).and_then(|svg| write(args, &svg)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hnefi picture: {e}");
            ExitCode::from(2)
        }
    }
}

/// The SVG text of the picture `args` ask for.
pub(crate) fn picture(args: &PictureArgs) -> Result<String, PictureError> {
    let source = args.game.source();
    let size = args.game.size_or_usual(&source);
    let variant = source.variant(size)?;
    let rules = args.game.rules_of(&variant);
    crate::with_size!(size, G => {
        let start = start::<G>(args, &variant, rules)?;
        let game = GameRecordOf::<G>::from_moves(&args.moves)?
            .replay_from(start, rules)
            .map_err(AnyReplayError::from)?;
        let title = title(&variant, &game);
        Ok(format!("{}\n", board::draw(&Scene::of_game(&game), &title)))
    })
}

/// The position `args`' moves start from: the game's start position or --position.
fn start<G: Geometry>(
    args: &PictureArgs,
    variant: &Variant,
    rules: RuleSet,
) -> Result<PositionOf<G>, PictureError> {
    Ok(match &args.position {
        None => {
            let start = variant.start_position::<G>()?;
            match args.to_move {
                Some(role) => PositionOf::new(*start.board(), role),
                None => start,
            }
        }
        Some(otn) => PositionOf::new(
            parse_opentafl_with::<G>(otn, rules.restricted())?,
            args.to_move.unwrap_or(variant.first()),
        ),
    })
}

/// The picture's title: the game, the moves played, the last with its captures, and the
/// side to move.
fn title<G: Geometry>(variant: &Variant, game: &GameOf<G>) -> String {
    let moves = game.moves_played();
    let last = scene::last_move(game).map_or_else(String::new, |m| format!(", the last {m}"));
    let plural = if moves == 1 { "move" } else { "moves" };
    let state = if game.status().is_over() {
        format!("the rules say {}", game.status())
    } else {
        format!("{} to move", game.to_move())
    };
    format!("{variant} after {moves} {plural}{last}; {state}")
}

/// Writes the picture to --out, or to stdout.
fn write(args: &PictureArgs, svg: &str) -> Result<(), PictureError> {
    match &args.out {
        Some(path) => std::fs::write(path, svg).map_err(|source| PictureError::Write {
            path: path.display().to_string(),
            source,
        }),
        None => {
            stdout::text(svg);
            Ok(())
        }
    }
}
