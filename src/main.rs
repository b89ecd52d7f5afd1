//! The `hnefi` command line.

use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

use hnefi::core::notation::parse_opentafl;
use hnefi::core::position::Position;
use hnefi::core::role::Role;
use hnefi::tools::perft;

/// hnefi: a Copenhagen Hnefatafl engine.
#[derive(Parser, Debug)]
#[command(name = "hnefi", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaf positions of the move tree (repetition off; see rules/perft.txt).
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
    },
    /// Search the fixed bench positions at one thread; print total nodes and nodes/s.
    Bench {
        /// Search this many plies deeper than the bench's depths.
        #[arg(long, default_value_t = 0)]
        extra_depth: u32,
    },
}

fn run_perft(depth: u32, position: Option<String>, to_move: Role, divide: bool) -> ExitCode {
    let pos = match position {
        None => Position::start(),
        Some(s) => match parse_opentafl(&s) {
            Ok(board) => Position::new(board, to_move),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let start = Instant::now();
    let nodes = if divide {
        let mut total = 0;
        for (mv, n) in perft::divide(&pos, depth) {
            println!("{mv}: {n}");
            total += n;
        }
        total
    } else {
        perft::perft(&pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("perft {depth}: {nodes}");
    println!(
        "time {:.3} s, {:.1} M leaves/s",
        secs,
        nodes as f64 / secs.max(1e-9) / 1e6
    );
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft {
            depth,
            position,
            to_move,
            divide,
        }) => run_perft(depth, position, to_move, divide),
        Some(Command::Bench { extra_depth }) => {
            hnefi::tools::bench::main(extra_depth);
            ExitCode::SUCCESS
        }
        None => {
            eprintln!("hnefi: the protocol engine is not built yet; try `hnefi perft 4`");
            ExitCode::SUCCESS
        }
    }
}
