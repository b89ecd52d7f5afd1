//! The command table: each command is a name, its usage, a help line and a small function
//! from the parsed arguments to the reply text. `list_commands` and `known_command` read
//! the same table.

use std::time::Duration;

use crate::core::any_square::{AnyMove, AnySquare};
use crate::core::encirclement_mode::EncirclementMode;
use crate::core::excerpt::excerpt;
use crate::core::geometry::BoardSize;
use crate::core::outcome::Status;
use crate::core::repetition::RepetitionMode;
use crate::core::role::Role;
use crate::core::rules_source::RulesSource;
use crate::options::{self, MAX_CLOCK_MS, MAX_INCREMENT_SECS, MAX_MINUTES, MAX_MOVETIME_MS};
use crate::search::Info;
use crate::session::{EngineMove, MAX_PERFT_DEPTH, Session};
use crate::time_control::Fischer;

/// What a command returns: the reply text, or an error message.
pub(crate) type Reply = Result<String, String>;

/// One command of the protocol.
#[derive(Clone, Copy, Debug)]
pub struct Command {
    /// Its name.
    pub name: &'static str,
    /// How it is called, e.g. `play ROLE FROM TO`.
    pub(crate) usage: &'static str,
    /// What it does.
    pub(crate) help: &'static str,
    /// True when a success ends the session (`quit`).
    pub(crate) ends_session: bool,
    /// The handler.
    pub(crate) run: fn(&mut Session, &[&str]) -> Reply,
}

const fn cmd(
    name: &'static str,
    usage: &'static str,
    help: &'static str,
    run: fn(&mut Session, &[&str]) -> Reply,
) -> Command {
    Command {
        name,
        usage,
        help,
        ends_session: false,
        run,
    }
}

/// Every command, in the order `list_commands` gives them.
pub const COMMANDS: &[Command] = &[
    cmd("name", "name", "the engine's name", name),
    cmd("version", "version", "the engine's version", version),
    cmd(
        "protocol_version",
        "protocol_version",
        "the protocol version: 2",
        protocol_version,
    ),
    cmd(
        "list_commands",
        "list_commands",
        "every command, one per line",
        list_commands,
    ),
    cmd(
        "known_command",
        "known_command NAME",
        "true if NAME is a command",
        known_command,
    ),
    cmd(
        "help",
        "help [NAME]",
        "the usage and help of a command, or of all",
        help,
    ),
    Command {
        ends_session: true,
        ..cmd(
            "quit",
            "quit",
            "ends the session once the commands before it are done (a streaming analysis or pondering ends at once; stop ends a search sooner)",
            quit,
        )
    },
    cmd(
        "stop",
        "stop",
        "ends a running generate_move or analyze at once (with the best move found so far) or a running perft (with an error); otherwise nothing",
        stop,
    ),
    cmd(
        "board_size",
        "board_size SIZE",
        "a new game on a SIZE x SIZE board: the rule family's game of that size (its start position and first mover), or an error naming the sizes the family has (an OpenTafl rules string's game has only its own board)",
        board_size,
    ),
    cmd(
        "clear_board",
        "clear_board",
        "a new game from the start position on the same board, its first mover first",
        clear_board,
    ),
    cmd(
        "reset_board",
        "reset_board",
        "the same as clear_board",
        clear_board,
    ),
    cmd(
        "play",
        "play ROLE FROM TO | play ROLE resign",
        "plays a move (reply: its captures) or resigns",
        play,
    ),
    cmd("play_undo", "play_undo", "takes back one ply", play_undo),
    cmd(
        "generate_move",
        "generate_move",
        "searches, plays and replies play ROLE FROM TO",
        generate_move,
    ),
    cmd(
        "final_status",
        "final_status",
        "attacker_wins, defender_wins, draw or ongoing",
        final_status,
    ),
    cmd(
        "final_status_reason",
        "final_status_reason",
        "why the game ended, or none",
        final_status_reason,
    ),
    cmd(
        "play_from",
        "play_from",
        "the side to move and the squares of its movable pieces",
        play_from,
    ),
    cmd(
        "play_to",
        "play_to ROLE FROM",
        "the legal destinations of the piece on FROM",
        play_to,
    ),
    cmd(
        "legal_moves",
        "legal_moves",
        "every legal move of the side to move",
        legal_moves,
    ),
    cmd(
        "show_board",
        "show_board",
        "a diagram of the board and the side to move; with show_wdl on, then what the last search of this position found (its depth, score and wdl)",
        show_board,
    ),
    cmd(
        "show_moves",
        "show_moves",
        "the game so far in record notation",
        show_moves,
    ),
    cmd(
        "first_move",
        "first_move ROLE",
        "starts a new game in which ROLE moves first",
        first_move,
    ),
    cmd(
        "time_settings",
        "time_settings none | time_settings fischer MINUTES ADD_SECONDS",
        "sets the time control; the game goes on. generate_move budgets from time_left when the controller sends it, else from the time the engine itself has used since (starting from MINUTES)",
        time_settings,
    ),
    cmd(
        "time_left",
        "time_left ROLE MILLISECONDS",
        "the time ROLE has left",
        time_left,
    ),
    cmd(
        "set_position",
        "set_position POSITION [ROLE]",
        "a new game from an OpenTafl position",
        set_position,
    ),
    cmd(
        "show_position",
        "show_position",
        "the position in OpenTafl notation and the side to move",
        show_position,
    ),
    cmd(
        "load_moves",
        "load_moves MOVE...",
        "a new game with these record moves played",
        load_moves,
    ),
    cmd(
        "perft",
        "perft DEPTH",
        "the leaf count DEPTH plies below the position",
        perft,
    ),
    cmd(
        "set_rule",
        "set_rule repetition MODE | set_rule move_limit PLIES | set_rule encirclement MODE | set_rule rules NAME|STRING",
        "sets a rule for this game and the next; rules chooses a named rule set (copenhagen, hnefatafl-org, fetlar, brandubh, tablut, sea-battle, tawlbwrdd: the game goes on if the set has the board, else its usual board starts) or an OpenTafl rules string, every word after rules (dim:N ... start:..., optionally after the word rules; a new game on its own board)",
        set_rule,
    ),
    cmd(
        "set_option",
        "set_option NAME VALUE",
        "sets an option of the engine (help set_option lists each one's values)",
        set_option,
    ),
    cmd(
        "analyze",
        "analyze [MILLISECONDS] | analyze interval MILLISECONDS",
        "searches without playing; with no limit in force (no MILLISECONDS, no depth, nodes or movetime_ms option), or with interval, streams info lines until the next command; else replies move, score, depth, nodes, pv (a line per multipv)",
        analyze,
    ),
];

/// GTP's names (and other engines') for commands of this table: an unknown command with
/// one of these names is answered with the name to use instead.
pub(crate) const FOREIGN_NAMES: &[(&str, &str)] = &[
    ("genmove", "generate_move"),
    ("showboard", "show_board"),
    ("boardsize", "board_size"),
    ("final_status_list", "final_status"),
    ("undo", "play_undo"),
];

/// The command called `name`.
pub(crate) fn find(name: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.name == name)
}

// ---- argument helpers ----

fn usage_of(name: &str) -> &'static str {
    find(name).map_or("", |c| c.usage)
}

/// Checks the number of arguments.
fn arity(args: &[&str], min: usize, max: usize, name: &str) -> Result<(), String> {
    arity_in(args, min, max, usage_of(name))
}

/// Checks the number of arguments against a usage line (of any dialect's table).
pub(crate) fn arity_in(args: &[&str], min: usize, max: usize, usage: &str) -> Result<(), String> {
    if (min..=max).contains(&args.len()) {
        Ok(())
    } else {
        Err(format!(
            "wrong number of arguments ({}): expected {usage}",
            args.len()
        ))
    }
}

fn arg<'a>(args: &[&'a str], i: usize, what: &str) -> Result<&'a str, String> {
    args.get(i)
        .copied()
        .ok_or_else(|| format!("argument {} ({what}) is missing", i + 1))
}

fn role_arg(args: &[&str], i: usize) -> Result<Role, String> {
    arg(args, i, "ROLE")?
        .parse()
        .map_err(|e| format!("argument {} (ROLE): {e}", i + 1))
}

/// A square of the board of the game in progress.
fn square_arg(s: &Session, args: &[&str], i: usize, what: &str) -> Result<AnySquare, String> {
    AnySquare::parse(arg(args, i, what)?, s.board_size())
        .map_err(|e| format!("argument {} ({what}): {e}", i + 1))
}

/// A whole number from `min` to `max`.
pub(crate) fn number_arg(
    args: &[&str],
    i: usize,
    what: &str,
    min: u64,
    max: u64,
) -> Result<u64, String> {
    let text = arg(args, i, what)?;
    let bad = |why: String| format!("argument {} ({what}): {why}", i + 1);
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad(format!(
            "'{}' is not a whole number from {min} to {max}",
            excerpt(text)
        )));
    }
    match text.parse::<u64>() {
        Ok(n) if n < min => Err(bad(format!("{n} is too small: at least {min}"))),
        Ok(n) if n <= max => Ok(n),
        _ => Err(bad(format!(
            "{} is too large: at most {max}",
            excerpt(text)
        ))),
    }
}

/// A non-negative decimal number (`2`, `0.5`) up to `max`.
fn decimal_arg(args: &[&str], i: usize, what: &str, max: f64) -> Result<f64, String> {
    let text = arg(args, i, what)?;
    match options::decimal(text) {
        Some(v) if v <= max => Ok(v),
        _ => Err(format!(
            "argument {} ({what}): '{}' is not a number from 0 to {max}, like 5 or 0.5",
            i + 1,
            excerpt(text)
        )),
    }
}

fn join<T: ToString>(items: impl IntoIterator<Item = T>) -> String {
    items
        .into_iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

// ---- the commands ----

fn name(_: &mut Session, args: &[&str]) -> Reply {
    arity(args, 0, 0, "name")?;
    Ok("hnefi".into())
}

fn version(_: &mut Session, args: &[&str]) -> Reply {
    arity(args, 0, 0, "version")?;
    Ok(env!("CARGO_PKG_VERSION").into())
}

fn protocol_version(_: &mut Session, args: &[&str]) -> Reply {
    arity(args, 0, 0, "protocol_version")?;
    Ok("2".into())
}

fn list_commands(_: &mut Session, args: &[&str]) -> Reply {
    arity(args, 0, 0, "list_commands")?;
    Ok(COMMANDS
        .iter()
        .map(|c| c.name)
        .collect::<Vec<_>>()
        .join("\n"))
}

fn known_command(_: &mut Session, args: &[&str]) -> Reply {
    arity(args, 1, 1, "known_command")?;
    Ok(find(arg(args, 0, "NAME")?).is_some().to_string())
}

fn help(_: &mut Session, args: &[&str]) -> Reply {
    arity(args, 0, 1, "help")?;
    help_over(COMMANDS, FOREIGN_NAMES, args)
}

/// `help [NAME]` over a dialect's table; `help set_option` adds a line per option of the
/// table of options.
pub(crate) fn help_over(table: &[Command], foreign: &[(&str, &str)], args: &[&str]) -> Reply {
    let line = |c: &Command| format!("{}: {}", c.usage, c.help);
    match args.first() {
        None => Ok(table.iter().map(line).collect::<Vec<_>>().join("\n")),
        Some(n) => {
            let c = table.iter().find(|c| c.name == *n).ok_or_else(|| {
                let hint = super::suggest::hint(table.iter().map(|c| c.name), foreign, n)
                    .map(|h| format!(": {h}"))
                    .unwrap_or_default();
                format!("argument 1 (NAME): unknown command '{}'{hint}", excerpt(n))
            })?;
            let mut text = line(c);
            if c.name == "set_option" {
                for o in options::OPTIONS {
                    text.push_str("\n  ");
                    text.push_str(&o.describe());
                }
            }
            Ok(text)
        }
    }
}

fn quit(_: &mut Session, args: &[&str]) -> Reply {
    arity(args, 0, 0, "quit")?;
    Ok(String::new())
}

/// The reader thread has already stopped the search that `stop` was sent for (see
/// [`Engine::run`](super::Engine::run)); the command itself only answers.
pub(crate) fn stop(_: &mut Session, args: &[&str]) -> Reply {
    arity(args, 0, 0, "stop")?;
    Ok(String::new())
}

fn board_size(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 1, 1, "board_size")?;
    let bad = |e: String| format!("argument 1 (SIZE): {e}");
    let size: BoardSize = arg(args, 0, "SIZE")?
        .parse()
        .map_err(|e: crate::core::geometry::BoardSizeError| bad(e.to_string()))?;
    s.set_board_size(size).map_err(|e| bad(e.to_string()))?;
    Ok(String::new())
}

fn clear_board(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 0, 0, "clear_board")?;
    s.new_game(None).map_err(|e| e.to_string())?;
    Ok(String::new())
}

fn play(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 2, 3, "play")?;
    let role = role_arg(args, 0)?;
    let second = arg(args, 1, "FROM")?;
    if args.len() == 2 && ["resign", "resigns"].contains(&second.to_ascii_lowercase().as_str()) {
        s.resign(role).map_err(|e| e.to_string())?;
        return Ok(String::new());
    }
    let mv = if args.len() == 2 {
        AnyMove::parse(second, s.board_size()).map_err(|e| {
            format!("argument 2 (FROM-TO): {e}; or play ROLE FROM TO, or play ROLE resign")
        })?
    } else {
        let from = square_arg(s, args, 1, "FROM")?;
        let to = square_arg(s, args, 2, "TO")?;
        AnyMove::new(from, to).ok_or_else(|| {
            format!("{from}-{to} is not a straight move: FROM and TO must differ and share a rank or file")
        })?
    };
    Ok(join(s.play(role, mv).map_err(|e| e.to_string())?))
}

fn play_undo(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 0, 0, "play_undo")?;
    s.undo().map_err(|e| e.to_string())?;
    Ok(String::new())
}

fn generate_move(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 0, 0, "generate_move")?;
    let (role, mv) = s.generate_move().map_err(|e| e.to_string())?;
    Ok(match mv {
        EngineMove::Play(mv) => format!("play {role} {} {}", mv.from, mv.to),
        EngineMove::Resign => format!("play {role} resign"),
    })
}

fn final_status(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 0, 0, "final_status")?;
    Ok(match s.status() {
        Status::Ongoing => "ongoing".into(),
        Status::Over(o) => match o.winner {
            Some(winner) => format!("{winner}_wins"),
            None => "draw".into(),
        },
    })
}

fn final_status_reason(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 0, 0, "final_status_reason")?;
    Ok(match s.status() {
        Status::Ongoing => "none",
        Status::Over(o) => o.reason.protocol_name(),
    }
    .into())
}

fn play_from(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 0, 0, "play_from")?;
    let role = s.to_move();
    let squares = s.movable_pieces();
    if squares.is_empty() {
        Ok(role.to_string())
    } else {
        Ok(format!("{role} {}", join(squares)))
    }
}

fn play_to(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 2, 2, "play_to")?;
    let role = role_arg(args, 0)?;
    let from = square_arg(s, args, 1, "FROM")?;
    Ok(join(s.destinations(role, from).map_err(|e| e.to_string())?))
}

fn legal_moves(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 0, 0, "legal_moves")?;
    Ok(join(s.legal_moves()))
}

fn show_board(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 0, 0, "show_board")?;
    let diagram = match s.game().ordinary() {
        Some(game) if s.colour() => super::colour::diagram(game),
        _ => s.diagram(),
    };
    // The diagram starts on the line after `=`, so that its rows line up.
    let mut reply = format!("\n{diagram}\n{} to move", s.to_move());
    // With show_wdl on, what the last search of this position found, for a person.
    if let Some(found) = s.evaluation()
        && let Some(wdl) = s.wdl(found.score)
    {
        reply.push_str(&format!(
            "\nlast search: depth {} score {} {wdl}",
            found.depth, found.score
        ));
    }
    Ok(reply)
}

fn show_moves(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 0, 0, "show_moves")?;
    Ok(s.moves_field())
}

fn first_move(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 1, 1, "first_move")?;
    let role = role_arg(args, 0)?;
    s.new_game(Some(role)).map_err(|e| e.to_string())?;
    Ok(String::new())
}

pub(crate) fn time_settings(s: &mut Session, args: &[&str]) -> Reply {
    let kind = arg(args, 0, "none or fischer")?;
    match kind.to_ascii_lowercase().as_str() {
        "none" | "un-timed" => {
            arity(args, 1, 1, "time_settings")?;
            s.set_time_control(None);
        }
        "fischer" => {
            arity(args, 3, 3, "time_settings")?;
            let minutes = decimal_arg(args, 1, "MINUTES", MAX_MINUTES)?;
            let add = decimal_arg(args, 2, "ADD_SECONDS", MAX_INCREMENT_SECS)?;
            s.set_time_control(Some(Fischer {
                base: Duration::from_secs_f64(minutes * 60.0),
                increment: Duration::from_secs_f64(add),
            }));
        }
        _ => {
            return Err(format!(
                "argument 1: '{}' is not a time control: expected none, un-timed or fischer",
                excerpt(kind)
            ));
        }
    }
    Ok(String::new())
}

fn time_left(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 2, 2, "time_left")?;
    let role = role_arg(args, 0)?;
    let ms = number_arg(args, 1, "MILLISECONDS", 0, MAX_CLOCK_MS)?;
    s.set_time_left(role, Duration::from_millis(ms));
    Ok(String::new())
}

fn set_position(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 1, 2, "set_position")?;
    let role = if args.len() == 2 {
        role_arg(args, 1)?
    } else {
        Role::Attacker
    };
    s.set_position(arg(args, 0, "POSITION")?, role)
        .map_err(|e| format!("argument 1 (POSITION): {e}"))?;
    Ok(String::new())
}

fn show_position(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 0, 0, "show_position")?;
    Ok(format!("{} {}", s.to_opentafl(), s.to_move()))
}

fn load_moves(s: &mut Session, args: &[&str]) -> Reply {
    s.load_moves(args).map_err(|e| e.to_string())?;
    Ok(String::new())
}

fn perft(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 1, 1, "perft")?;
    let depth = number_arg(args, 0, "DEPTH", 0, MAX_PERFT_DEPTH)?;
    let depth = u32::try_from(depth).map_err(|e| e.to_string())?;
    Ok(s.perft(depth)
        .map_err(|e| format!("perft {depth}: {e}"))?
        .to_string())
}

fn set_rule(s: &mut Session, args: &[&str]) -> Reply {
    let rule = arg(args, 0, "RULE")?;
    // An OpenTafl rules string is every word after `rules`; any other rule takes one.
    if rule == "rules" && args.len() > 2 {
        let text = args.get(1..).unwrap_or_default().join(" ");
        let source: RulesSource = text
            .parse()
            .map_err(|e| format!("argument 2 (RULES): {e}"))?;
        s.set_source(source)
            .map_err(|e| format!("argument 2 (RULES): {e}"))?;
        return Ok(String::new());
    }
    arity(args, 2, 2, "set_rule")?;
    if s.berserk().is_some() && rule != "rules" {
        return Err("argument 1 (RULE): a Berserk game keeps its rules string's rules (its repetition rule is the string's tfr); set_rule rules to change the game".to_string());
    }
    match rule {
        "repetition" => {
            let mode: RepetitionMode = arg(args, 1, "MODE")?
                .parse()
                .map_err(|e| format!("argument 2 (MODE): {e}"))?;
            s.set_repetition(mode);
        }
        "move_limit" => {
            let plies = number_arg(args, 1, "PLIES", 0, u64::from(u32::MAX))?;
            s.set_move_limit(u32::try_from(plies).map_err(|e| e.to_string())?);
        }
        "encirclement" => {
            let mode: EncirclementMode = arg(args, 1, "MODE")?
                .parse()
                .map_err(|e| format!("argument 2 (MODE): {e}"))?;
            s.set_encirclement(mode);
        }
        "rules" => {
            let source: RulesSource = arg(args, 1, "RULES")?
                .parse()
                .map_err(|e| format!("argument 2 (RULES): {e}"))?;
            s.set_source(source)
                .map_err(|e| format!("argument 2 (RULES): {e}"))?;
        }
        _ => {
            return Err(format!(
                "argument 1 (RULE): unknown rule '{}': expected repetition, move_limit, encirclement or rules",
                excerpt(rule)
            ));
        }
    }
    Ok(String::new())
}

pub(crate) fn set_option(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 2, 2, "set_option")?;
    let option =
        options::get(arg(args, 0, "NAME")?).map_err(|e| format!("argument 1 (NAME): {e}"))?;
    let text = arg(args, 1, "VALUE")?;
    if option.name == options::NET.name {
        s.set_net(text)
            .map_err(|e| format!("argument 2 (VALUE): {e}"))?;
        return Ok(String::new());
    }
    let value = option
        .parse(text)
        .map_err(|e| format!("argument 2 (VALUE): {e}"))?;
    s.set_option_value(option, value)
        .map_err(|e| e.to_string())?;
    Ok(String::new())
}

fn analyze(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 0, 1, "analyze")?;
    let movetime = match args.first() {
        None => None,
        Some(_) => {
            let ms = number_arg(args, 0, "MILLISECONDS", 1, MAX_MOVETIME_MS)?;
            Some(Duration::from_millis(ms))
        }
    };
    // The latest report of each line after the first (multi-PV).
    let mut others: Vec<Info<AnyMove>> = Vec::new();
    let result = s
        .analyze_reporting(movetime, &mut |info| {
            if let Some(k) = info.multipv.filter(|&k| k > 1) {
                others.retain(|o| o.multipv != Some(k));
                others.push(info.clone());
            }
        })
        .map_err(|e| e.to_string())?;
    let best = result.best.map(|m| m.to_string()).unwrap_or_default();
    let wdl = |score| s.wdl(score).map(|w| format!(" {w}")).unwrap_or_default();
    let mut reply = format!(
        "move {best} score {}{} depth {} nodes {} pv {}",
        result.score,
        wdl(result.score),
        result.depth,
        result.nodes,
        join(&result.pv)
    );
    others.sort_by_key(|o| o.multipv);
    for o in others {
        let first = o.pv.first().map(|m| m.to_string()).unwrap_or_default();
        reply.push_str(&format!(
            "\nmove {first} score {}{} depth {} nodes {} pv {}",
            o.score,
            wdl(o.score),
            o.depth,
            result.nodes,
            join(&o.pv)
        ));
    }
    Ok(reply)
}
