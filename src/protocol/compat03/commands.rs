//! The command table of the 0.3.1 dialect. The replies and arguments are written and read
//! by [`notation`](super::notation); the session does the work, as for hnefi's own table,
//! whose commands are reused where 0.3.1's took no square or colour (`time_settings`,
//! `set_option`).

use crate::core::moves::Move;
use crate::protocol::commands::{self as own, Command, Reply};
use crate::session::{EngineMove, Session};

use super::notation::{
    board_diagram, colour_name, illegal_move_message, parse_colour, parse_square, square_name,
    status_name,
};

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

/// Every command of the dialect, in the order `list_commands` gives them.
pub const COMMANDS: &[Command] = &[
    cmd("name", "name", "the engine's name", name),
    cmd("version", "version", "the engine's version", version),
    cmd(
        "protocol_version",
        "protocol_version",
        "the protocol version: 1-beta",
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
        ..cmd("quit", "quit", "ends the session", quit)
    },
    cmd(
        "stop",
        "stop",
        "hnefi's own: ends a running generate_move at once (with the best move found so far); otherwise nothing",
        own::stop,
    ),
    cmd(
        "reset_board",
        "reset_board",
        "a new game from the start position, black (the attackers) first",
        reset_board,
    ),
    cmd(
        "play",
        "play COLOR FROM TO | play COLOR resigns",
        "plays a move of COLOR (black or white; files a to l without i), reply: its captures",
        play,
    ),
    cmd(
        "generate_move",
        "generate_move",
        "searches, plays and replies COLOR FROM TO",
        generate_move,
    ),
    cmd(
        "final_status",
        "final_status",
        "black_wins, white_wins, draw or ongoing",
        final_status,
    ),
    cmd(
        "show_board",
        "show_board",
        "the board: X black, O white, K the king, R a restricted square",
        show_board,
    ),
    cmd(
        "time_settings",
        "time_settings none | time_settings fischer MINUTES ADD_SECONDS",
        "sets the time control; the game goes on",
        own::time_settings,
    ),
    cmd(
        "set_option",
        "set_option NAME VALUE",
        "sets an option of the engine, as in hnefi's protocol (help set_option lists each one's values; compat off before the first move)",
        own::set_option,
    ),
];

/// GTP's names for commands of this table (0.3.1 renamed them), and hnefi's own: an
/// unknown command with one of these names is answered with the name to use instead.
pub(crate) const FOREIGN_NAMES: &[(&str, &str)] = &[
    ("genmove", "generate_move"),
    ("showboard", "show_board"),
    ("clear_board", "reset_board"),
    ("boardsize", "reset_board"),
    ("board_size", "reset_board"),
    ("final_status_list", "final_status"),
];

/// The command called `name`.
pub(crate) fn find(name: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.name == name)
}

fn arity(args: &[&str], n: usize, name: &str) -> Result<(), String> {
    own::arity_in(args, n, n, find(name).map_or("", |c| c.usage))
}

fn name(_: &mut Session, args: &[&str]) -> Reply {
    arity(args, 0, "name")?;
    Ok("hnefi".into())
}

fn version(_: &mut Session, args: &[&str]) -> Reply {
    arity(args, 0, "version")?;
    Ok(env!("CARGO_PKG_VERSION").into())
}

fn protocol_version(_: &mut Session, args: &[&str]) -> Reply {
    arity(args, 0, "protocol_version")?;
    Ok("1-beta".into())
}

fn list_commands(_: &mut Session, args: &[&str]) -> Reply {
    arity(args, 0, "list_commands")?;
    Ok(COMMANDS
        .iter()
        .map(|c| c.name)
        .collect::<Vec<_>>()
        .join("\n"))
}

fn known_command(_: &mut Session, args: &[&str]) -> Reply {
    arity(args, 1, "known_command")?;
    Ok(args.first().is_some_and(|n| find(n).is_some()).to_string())
}

fn help(_: &mut Session, args: &[&str]) -> Reply {
    own::arity_in(args, 0, 1, "help [NAME]")?;
    own::help_over(COMMANDS, FOREIGN_NAMES, args)
}

fn quit(_: &mut Session, args: &[&str]) -> Reply {
    arity(args, 0, "quit")?;
    Ok(String::new())
}

fn reset_board(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 0, "reset_board")?;
    s.new_game(Some(crate::core::role::Role::Attacker))
        .map_err(|e| e.to_string())?;
    Ok(String::new())
}

fn play(s: &mut Session, args: &[&str]) -> Reply {
    let usage = find("play").map_or("", |c| c.usage);
    own::arity_in(args, 2, 3, usage)?;
    let colour = args.first().copied().unwrap_or_default();
    let role = parse_colour(colour).map_err(|e| format!("argument 1 (COLOR): {e}"))?;
    let second = args.get(1).copied().unwrap_or_default();
    if args.len() == 2 {
        if second.eq_ignore_ascii_case("resigns") {
            s.resign(role).map_err(|e| e.to_string())?;
            return Ok(String::new());
        }
        return Err(format!(
            "argument 2: '{}' is neither a square nor resigns: expected {usage}",
            crate::core::excerpt::excerpt(second)
        ));
    }
    let from = parse_square(second).map_err(|e| format!("argument 2 (FROM): {e}"))?;
    let to = parse_square(args.get(2).copied().unwrap_or_default())
        .map_err(|e| format!("argument 3 (TO): {e}"))?;
    let mv = Move::new(from, to).ok_or_else(|| {
        format!(
            "{} {} is not a straight move: FROM and TO must differ and share a rank or file",
            square_name(from),
            square_name(to)
        )
    })?;
    if s.status().is_over() {
        return Err("the game is over".into());
    }
    if s.game().to_move() != role {
        return Err(format!("not {}'s turn", colour_name(role)));
    }
    // The dialect plays 11x11 only (Engine::set_dialect starts an 11x11 game).
    s.game11()
        .map_err(|e| e.to_string())?
        .check(mv)
        .map_err(illegal_move_message)?;
    let captures = s.play(role, mv.into()).map_err(|e| e.to_string())?;
    Ok(captures
        .into_iter()
        .filter_map(|sq| sq.on::<crate::core::geometry::S11>())
        .map(square_name)
        .collect::<Vec<_>>()
        .join(" "))
}

fn generate_move(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 0, "generate_move")?;
    if s.status().is_over() {
        return Err("the game is over".into());
    }
    let (role, mv) = s.generate_move().map_err(|e| e.to_string())?;
    Ok(match mv {
        // The dialect's game is 11x11 (Engine::set_dialect starts one).
        EngineMove::Play(mv) => match mv.on::<crate::core::geometry::S11>() {
            Some(mv) => format!(
                "{} {} {}",
                colour_name(role),
                square_name(mv.from),
                square_name(mv.to)
            ),
            None => format!("{} {} {}", colour_name(role), mv.from, mv.to),
        },
        EngineMove::Resign => format!("{} resigns", colour_name(role)),
    })
}

fn final_status(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 0, "final_status")?;
    Ok(status_name(s.status()))
}

fn show_board(s: &mut Session, args: &[&str]) -> Reply {
    arity(args, 0, "show_board")?;
    let game = s.game11().map_err(|e| e.to_string())?;
    Ok(format!("\n{}", board_diagram(game.position().board())))
}
