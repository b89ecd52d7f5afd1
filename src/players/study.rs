//! `hnefi study`: the tables of the Fetlar strategy study (its section 6, Tables 3 to
//! 14), played in process: every attacking strategy and Random against every defending
//! strategy and Random, `--games` games per pairing with varied seeds, each cut at
//! `--move-limit` moves (the paper's 1000), then set beside the paper's own numbers
//! ([`super::paper`]) with the agreement of each pairing ([`super::agreement`]).
//!
//! The columns are the paper's: wins, losses, ties, unfinished games and the average
//! number of moves of the finished games. A game still on at the cut-off is unfinished,
//! except that one that ends with a fort standing (the Fortification strategy's, see
//! [`Fort`]) is a tie, as the paper counts a fort built and held as a tie; a draw the
//! rules declare (under `fetlar`, a position's third occurrence, which a fort's shuttle
//! reaches at once) is a tie too, as the paper's rules (its section 5.1.8) call endless
//! repetition a tie. The paper counts "rounds" without saying whether a round is one move
//! or a move of each side; here a move is one ply (one side's move), so the cut-off is
//! 1000 plies.
//!
//! The games are played in process rather than through `hnefi match` between two
//! `hnefi --player` engines: the same [`Player`] chooses every move either way, and the
//! 3,000 games of up to 1000 plies need no process and no protocol round trip for every
//! move (their time is in docs/fetlar-study.md).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::process::ExitCode;

use clap::Args;

use crate::core::game::Game;

use crate::core::repetition::RepetitionMode;

use crate::core::outcome::{Outcome, Reason, Status};
use crate::core::preset::RulePreset;
use crate::core::role::Role;
use crate::core::rules::RuleSet;

use super::agreement::fisher_two_sided;
use super::fortification::Fort;
use super::paper::{self, PAPER, PaperCell};
use super::vocabulary::could_win_at_once;
use super::{Player, Strategy, duel};

/// The flags of `hnefi study`.
#[derive(Args, Debug, Clone)]
pub struct StudyArgs {
    /// Games per pairing (the paper played 10).
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub games: u64,
    /// The first seed: game i of every pairing gives the attackers seed S + 2i and the
    /// defenders S + 2i + 1.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Moves (plies) after which an unfinished game is cut (the paper's 1000).
    #[arg(long, value_name = "PLIES", default_value_t = 1000)]
    pub move_limit: u32,
    /// A named rule set (default fetlar, the study's).
    #[arg(long, value_name = "PRESET", default_value = "fetlar")]
    pub rules: RulePreset,
    /// The repetition rule (default the preset's).
    #[arg(long, value_name = "MODE")]
    pub repetition: Option<RepetitionMode>,
}

/// The attackers' side of the tables: the four strategies and Random.
pub(crate) const ATTACKERS: [Strategy; 5] = [
    Strategy::Aggressive,
    Strategy::BarricadingAggressive,
    Strategy::BarricadingCordon,
    Strategy::KingCentered,
    Strategy::Random,
];

/// The defenders' side: the five strategies and Random.
pub(crate) const DEFENDERS: [Strategy; 6] = [
    Strategy::Defensive,
    Strategy::FootInTheDoor,
    Strategy::Fortification,
    Strategy::KingsGuard,
    Strategy::MobileKing,
    Strategy::Random,
];

/// How one game counts in the tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counted {
    /// `None` for a game still on at the cut-off; else the winner, none for a tie (a fort
    /// held at the cut-off, or a draw by the rules). The tables name no reason.
    pub result: Option<Outcome<()>>,
    /// The moves played (the tables average those of the won games).
    pub moves: usize,
}

/// How a game counts in the tables.
pub fn counted(game: &Game) -> Counted {
    let tie = Some(Outcome::draw(()));
    let result = match game.status() {
        Status::Over(o) if o.winner.is_some() => Some(o.without_reason()),
        Status::Over(Outcome {
            reason: Reason::MoveLimit,
            ..
        })
        | Status::Ongoing => {
            let board = game.position().board();
            if Fort::all().any(|f| f.stands(board)) {
                tie
            } else {
                None
            }
        }
        Status::Over(_) => tie,
    };
    Counted {
        result,
        moves: game.moves_played(),
    }
}

/// The tally of one pairing (or one strategy's pairings), from one side's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    /// Games won.
    pub(crate) wins: u64,
    /// Games lost.
    pub(crate) losses: u64,
    /// Ties.
    pub(crate) ties: u64,
    /// Unfinished games.
    pub(crate) unfinished: u64,
    /// The moves of the finished games, summed.
    pub(crate) finished_moves: u64,
}

impl Tally {
    /// Counts one game for the side `side`.
    pub(crate) fn add(&mut self, game: Counted, side: Role) {
        match game.result.map(|o| o.winner) {
            Some(Some(winner)) => {
                if winner == side {
                    self.wins = self.wins.saturating_add(1);
                } else {
                    self.losses = self.losses.saturating_add(1);
                }
                let n = u64::try_from(game.moves).unwrap_or(u64::MAX);
                self.finished_moves = self.finished_moves.saturating_add(n);
            }
            Some(None) => self.ties = self.ties.saturating_add(1),
            None => self.unfinished = self.unfinished.saturating_add(1),
        }
    }

    fn merge(&mut self, other: &Tally) {
        self.wins = self.wins.saturating_add(other.wins);
        self.losses = self.losses.saturating_add(other.losses);
        self.ties = self.ties.saturating_add(other.ties);
        self.unfinished = self.unfinished.saturating_add(other.unfinished);
        self.finished_moves = self.finished_moves.saturating_add(other.finished_moves);
    }

    /// The same games from the other side.
    fn flipped(&self) -> Tally {
        Tally {
            wins: self.losses,
            losses: self.wins,
            ..*self
        }
    }

    /// The games counted.
    pub(crate) fn games(&self) -> u64 {
        self.wins
            .saturating_add(self.losses)
            .saturating_add(self.ties)
            .saturating_add(self.unfinished)
    }

    /// The average length of the finished games, `None` when none finished.
    pub(crate) fn average(&self) -> Option<f64> {
        let finished = self.wins.saturating_add(self.losses);
        (finished > 0).then(|| self.finished_moves as f64 / finished as f64)
    }

    fn row(&self, name: &str) -> String {
        format!(
            "| {name} | {} | {} | {} | {} | {} |",
            self.wins,
            self.losses,
            self.ties,
            self.unfinished,
            shown(self.average())
        )
    }
}

fn shown(average: Option<f64>) -> String {
    average.map_or_else(|| "-".to_string(), |a| format!("{a:.1}"))
}

/// The rules a study plays under: the preset, its repetition rule replaced if asked, and
/// the cut-off as the move limit.
pub(crate) fn rules(args: &StudyArgs) -> RuleSet {
    let mut rules = args.rules.rules();
    if let Some(mode) = args.repetition {
        rules.repetition = mode;
    }
    rules.move_limit = Some(args.move_limit);
    rules
}

/// Game `i` of the pairing `attacker` against `defender`.
pub fn play_one(attacker: Strategy, defender: Strategy, args: &StudyArgs, i: u64) -> Game {
    let seed = args.seed.wrapping_add(i.wrapping_mul(2));
    duel::play(
        Player {
            strategy: attacker,
            seed,
        },
        Player {
            strategy: defender,
            seed: seed.wrapping_add(1),
        },
        rules(args),
        usize::MAX,
    )
}

/// How a game ended, in words for the endings table: the status (`attackers-win
/// king-captured`, `draw repetition`, ...), or at the cut-off whether a fort stood.
pub fn ending(game: &Game) -> String {
    let result = counted(game).result;
    let tie = result.is_some_and(|o| o.winner.is_none());
    match (game.status(), result) {
        (
            Status::Ongoing
            | Status::Over(Outcome {
                winner: None,
                reason: Reason::MoveLimit,
            }),
            _,
        ) if tie => "fort standing at the cut-off".to_string(),
        // Where the king stands when the game is cut: under `fetlar` a king on the edge
        // cannot be captured, where the paper's formulas let the edge stand in for an
        // attacker (docs/fetlar-study.md).
        (_, None) if game.position().board().king().is_edge() => {
            "unfinished, the king on the edge".to_string()
        }
        (_, None) => "unfinished".to_string(),
        (
            status @ Status::Over(Outcome {
                winner: Some(_),
                reason: Reason::KingEscaped,
            }),
            _,
        ) => format!("{status} ({})", escape_kind(game)),
        (status, _) => status.to_string(),
    }
}

/// Whether the king's escape was already threatened before the attackers' last move (they
/// did not or could not block it: two ways out at once, or a strategy that does not look)
/// or was opened by that move (it moved a piece off the king's line, or took one away).
fn escape_kind(game: &Game) -> &'static str {
    let positions = game.positions();
    let before = positions
        .len()
        .checked_sub(3)
        .and_then(|i| positions.get(i));
    match before {
        Some(pos) if could_win_at_once(pos.board(), Role::Defender, &game.rules()) => {
            "threatened before the attackers' last move"
        }
        Some(_) => "opened by the attackers' last move",
        None => "at once",
    }
}

/// One pairing's games: the tally from the attackers' side and how the games ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Pairing {
    /// Wins, losses, ties, unfinished games, from the attackers' side.
    pub(crate) tally: Tally,
    /// How many games ended each way ([`ending`]).
    pub(crate) endings: BTreeMap<String, u64>,
}

/// The outcomes of every pairing: `results[a][d]`, in the order of [`ATTACKERS`] and
/// [`DEFENDERS`].
pub(crate) fn play_all(args: &StudyArgs) -> Vec<Vec<Pairing>> {
    ATTACKERS
        .iter()
        .map(|&a| {
            DEFENDERS
                .iter()
                .map(|&d| {
                    let mut pairing = Pairing::default();
                    for i in 0..args.games {
                        let game = play_one(a, d, args, i);
                        pairing.tally.add(counted(&game), Role::Attacker);
                        let n = pairing.endings.entry(ending(&game)).or_insert(0);
                        *n = n.saturating_add(1);
                    }
                    pairing
                })
                .collect()
        })
        .collect()
}

fn label(s: Strategy, side: Role) -> String {
    match (s, side) {
        (Strategy::Random, Role::Attacker) => "Random (attacker)".to_string(),
        (Strategy::Random, Role::Defender) => "Random (defender)".to_string(),
        _ => s.name().to_string(),
    }
}

const HEADER: &str = "| | Wins | Losses | Ties | Unfinished | Average moves (finished games) |\n|---|---|---|---|---|---|";

/// The tables in the paper's shape, as Markdown: one per attacking strategy (its
/// results against each defender, Tables 3 to 7), one per defending strategy (Tables 8
/// to 13), and the summary (Table 14; its averages are over the finished games, where the
/// paper's are the mean of the pairings' averages).
pub(crate) fn tables(results: &[Vec<Pairing>]) -> String {
    let mut out = String::new();
    let mut summary = Vec::new();
    for (row, &a) in results.iter().zip(ATTACKERS.iter()) {
        let _ = writeln!(
            out,
            "### {} against the defenders\n\n{HEADER}",
            label(a, Role::Attacker)
        );
        let mut total = Tally::default();
        for (p, &d) in row.iter().zip(DEFENDERS.iter()) {
            let _ = writeln!(out, "{}", p.tally.row(&label(d, Role::Defender)));
            total.merge(&p.tally);
        }
        out.push('\n');
        summary.push((label(a, Role::Attacker), total));
    }
    for (j, &d) in DEFENDERS.iter().enumerate() {
        let _ = writeln!(
            out,
            "### {} against the attackers\n\n{HEADER}",
            label(d, Role::Defender)
        );
        let mut total = Tally::default();
        for (row, &a) in results.iter().zip(ATTACKERS.iter()) {
            if let Some(p) = row.get(j) {
                let t = p.tally.flipped();
                let _ = writeln!(out, "{}", t.row(&label(a, Role::Attacker)));
                total.merge(&t);
            }
        }
        out.push('\n');
        summary.push((label(d, Role::Defender), total));
    }
    let _ = writeln!(out, "### Summary\n\n{HEADER}");
    for (name, t) in &summary {
        let _ = writeln!(out, "{}", t.row(name));
    }
    out
}

/// One pairing's agreement with the paper: the two-sided p-values of Fisher's exact test
/// on the attackers' wins and on the defenders' wins (the paper's of its 10 games against
/// these of `ours.games()`).
pub(crate) fn agreement(theirs: &PaperCell, ours: &Tally) -> (f64, f64) {
    let n = ours.games();
    (
        fisher_two_sided(theirs.wins, paper::GAMES, ours.wins, n),
        fisher_two_sided(theirs.losses, paper::GAMES, ours.losses, n),
    )
}

/// The p-value below which a pairing is said to disagree with the paper.
pub(crate) const DISAGREES_BELOW: f64 = 0.05;

/// Every pairing beside the paper's, as a Markdown table, with the agreement of each.
pub(crate) fn comparison(results: &[Vec<Pairing>]) -> String {
    let mut out = String::from(
        "| Attackers | Defenders | paper W-L-T-U (avg) | hnefi W-L-T-U (avg) | p, attackers' wins | p, defenders' wins | agree |\n|---|---|---|---|---|---|---|\n",
    );
    let mut agreeing = 0;
    let mut pairings = 0;
    for ((row, paper_row), &a) in results.iter().zip(PAPER.iter()).zip(ATTACKERS.iter()) {
        for ((pairing, theirs), &d) in row.iter().zip(paper_row.iter()).zip(DEFENDERS.iter()) {
            let ours = &pairing.tally;
            let (p_att, p_def) = agreement(theirs, ours);
            let agrees = p_att >= DISAGREES_BELOW && p_def >= DISAGREES_BELOW;
            pairings += 1;
            if agrees {
                agreeing += 1;
            }
            let _ = writeln!(
                out,
                "| {} | {} | {}-{}-{}-{} ({}) | {}-{}-{}-{} ({}) | {p_att:.3} | {p_def:.3} | {} |",
                label(a, Role::Attacker),
                label(d, Role::Defender),
                theirs.wins,
                theirs.losses,
                theirs.ties,
                theirs.unfinished,
                shown(theirs.average),
                ours.wins,
                ours.losses,
                ours.ties,
                ours.unfinished,
                shown(ours.average()),
                if agrees { "yes" } else { "no" }
            );
        }
    }
    let _ = writeln!(
        out,
        "\n{agreeing} of {pairings} pairings agree (both p-values at least {DISAGREES_BELOW})."
    );
    out
}

/// How the games of every pairing ended, as a Markdown table.
pub(crate) fn endings(results: &[Vec<Pairing>]) -> String {
    let mut out = String::from("| Attackers | Defenders | endings |\n|---|---|---|\n");
    for (row, &a) in results.iter().zip(ATTACKERS.iter()) {
        for (pairing, &d) in row.iter().zip(DEFENDERS.iter()) {
            let list: Vec<String> = pairing
                .endings
                .iter()
                .map(|(e, n)| format!("{e} {n}"))
                .collect();
            let _ = writeln!(
                out,
                "| {} | {} | {} |",
                label(a, Role::Attacker),
                label(d, Role::Defender),
                list.join(", ")
            );
        }
    }
    out
}

/// Runs `hnefi study`.
pub fn main(args: &StudyArgs) -> ExitCode {
    let results = play_all(args);
    let repetition = args.repetition.unwrap_or(args.rules.rules().repetition);
    crate::outln!(
        "Fetlar strategy study: {} games per pairing, seeds from {}, cut at {} moves, rules {}, repetition {}\n",
        args.games,
        args.seed,
        args.move_limit,
        args.rules,
        repetition
    );
    crate::outln!("{}", tables(&results));
    crate::outln!("### Beside the paper (10 games a pairing; W-L-T-U from the attackers' side)\n");
    crate::outln!("{}", comparison(&results));
    crate::outln!("### How the games ended\n");
    crate::outln!("{}", endings(&results));
    ExitCode::SUCCESS
}
