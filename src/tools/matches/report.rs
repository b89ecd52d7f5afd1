//! The final table: per engine wins/draws/losses overall and per side, each pair's score
//! and Elo (over games and over game pairs), the rating list of a round robin of three or
//! more engines or a gauntlet, the reasons games ended, the adjudications in game order,
//! and the SPRT state.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use crate::core::role::Role;

use super::config::MatchConfig;
use super::pairs::{pair_means, sprt_units};
use super::rating::{Scored, Unbounded, rating_list};
use super::records::GameResult;
use super::stats::{self, EloEstimate, SprtState, Wdl};

/// The 95% interval of an estimate, or why there is none.
fn interval_text(e: &EloEstimate, units: usize, what: &str) -> String {
    match e.interval {
        Some((low, high)) => format!("95%: {low:+.1} to {high:+.1}"),
        None if units < 2 => format!("95% interval: needs more {what}"),
        None => format!("95% interval: needs more {what} (all {units} scored the same)"),
    }
}

/// The games that repeat an earlier game move for move, in game order: (game, the
/// earlier game it repeats), numbered from 1. Deterministic engines from one position
/// play one game again; their score is then one game's, however many were played.
pub(crate) fn repeated_games(results: &[GameResult]) -> Vec<(usize, usize)> {
    let mut sorted: Vec<&GameResult> = results.iter().collect();
    sorted.sort_by_key(|r| r.index);
    let mut first: HashMap<&str, usize> = HashMap::new();
    let mut repeats = Vec::new();
    for r in sorted {
        let moves = r.record.split(',').next().unwrap_or_default();
        match first.get(moves) {
            Some(&earlier) => repeats.push((r.index + 1, earlier + 1)),
            None => {
                first.insert(moves, r.index);
            }
        }
    }
    repeats
}

/// The rating list: every engine's maximum-likelihood Elo from every game (see
/// [`rating`](super::rating)), best first, with its 95% interval, points and games.
pub(crate) fn rating_text(config: &MatchConfig, results: &[GameResult]) -> String {
    let games: Vec<Scored> = results
        .iter()
        .filter_map(|r| {
            Some(Scored {
                engine: r.attacker,
                opponent: r.defender,
                score: r.score_of(r.attacker)?,
            })
        })
        .collect();
    let list = rating_list(config.engines.len(), &games, config.anchor);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Rating list (maximum-likelihood Elo from all {} games, draws half a point; E{} held at 0; \
         ± the 95% interval relative to it):",
        games.len(),
        config.anchor + 1
    );
    let _ = writeln!(
        s,
        "{:>4} {:<6} {:>8} {:>7} {:>7} {:>5} {:>6}",
        "rank", "engine", "Elo", "±", "points", "games", "score"
    );
    let mut order: Vec<usize> = (0..config.engines.len()).collect();
    order.sort_by(|&a, &b| {
        let elo = |i: usize| {
            list.ratings
                .get(i)
                .copied()
                .flatten()
                .map_or(f64::NEG_INFINITY, |r| r.elo)
        };
        elo(b).total_cmp(&elo(a)).then(a.cmp(&b))
    });
    for (rank, &i) in order.iter().enumerate() {
        let points = list.points.get(i).copied().unwrap_or(0.0);
        let played = list.games.get(i).copied().unwrap_or(0);
        let score = if played > 0 {
            format!("{:.1}%", 100.0 * points / f64::from(played))
        } else {
            "-".into()
        };
        let (elo, error) = match list.ratings.get(i).copied().flatten() {
            Some(r) if i == list.anchor => (format!("{:+.1}", r.elo), "anchor".to_string()),
            Some(r) => (format!("{:+.1}", r.elo), format!("{:.1}", r.error)),
            None => ("-".into(), "-".into()),
        };
        let _ = writeln!(
            s,
            "{:>4} {:<6} {:>8} {:>7} {:>7} {:>5} {:>6}",
            rank + 1,
            format!("E{}", i + 1),
            elo,
            error,
            points,
            played,
            score
        );
    }
    let unrated: Vec<String> = order
        .iter()
        .filter(|&&i| list.ratings.get(i).copied().flatten().is_none())
        .map(|i| format!("E{}", i + 1))
        .collect();
    if !unrated.is_empty() {
        let _ = writeln!(
            s,
            "note: {} not rated: no games link them to E{} yet",
            unrated.join(", "),
            config.anchor + 1
        );
    }
    if let Some(u) = &list.prior {
        prior_note(&mut s, u);
    }
    s
}

/// The note of a rating list whose maximum-likelihood ratings are unbounded: who scored
/// every point, and the pairs the virtual draws were added to.
fn prior_note(s: &mut String, u: &Unbounded) {
    let names = |v: &[usize]| -> String {
        v.iter()
            .map(|i| format!("E{}", i + 1))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut who = Vec::new();
    if !u.won_all.is_empty() {
        who.push(format!("{} won every game", names(&u.won_all)));
    }
    if !u.lost_all.is_empty() {
        who.push(format!("{} lost every game", names(&u.lost_all)));
    }
    if who.is_empty() {
        who.push("some engines scored every point against the others".to_string());
    }
    let pairs: Vec<String> = u
        .pairs
        .iter()
        .map(|(i, j)| format!("E{}-E{}", i + 1, j + 1))
        .collect();
    let _ = writeln!(
        s,
        "note: {}: the maximum-likelihood ratings are unbounded (the further apart, the \
         likelier); one virtual draw was added to each pair that scored one way only ({}), \
         so their distance is a finite estimate that this prior sets as much as the games do",
        who.join("; "),
        pairs.join(", ")
    );
}

/// The result table: per engine wins/draws/losses overall and per side, score and Elo
/// per pair, the reasons games ended, and the SPRT state.
pub(crate) fn report(config: &MatchConfig, results: &[GameResult]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "Match: {} games; {}", results.len(), config.summary);
    for (i, e) in config.engines.iter().enumerate() {
        let _ = writeln!(s, "  E{}: {} ({})", i + 1, e.label, e.dialect.name());
    }
    let _ = writeln!(s);
    engine_table(&mut s, config, results);
    let _ = writeln!(s);
    pair_lines(&mut s, config, results);
    let _ = writeln!(s);
    if config.engines.len() > 2 || config.gauntlet {
        s.push_str(&rating_text(config, results));
        let _ = writeln!(s);
    }
    repeats_warning(&mut s, results);
    endings_table(&mut s, results);
    adjudications(&mut s, results);
    sprt_line(&mut s, config, results);
    s
}

/// Per engine: games, wins, draws, losses, points and score overall, and W-D-L per side.
fn engine_table(s: &mut String, config: &MatchConfig, results: &[GameResult]) {
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
    for i in 0..config.engines.len() {
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
}

/// Each pair of engines that the schedule makes meet: its score and Elo over games, and
/// its Elo over game pairs.
fn pair_lines(s: &mut String, config: &MatchConfig, results: &[GameResult]) {
    let n = config.engines.len();
    for i in 0..n {
        for j in i + 1..n {
            let met = config
                .schedule
                .iter()
                .any(|g| (g.attacker, g.defender) == (i, j) || (g.attacker, g.defender) == (j, i));
            if met {
                pair_text(s, config, results, i, j);
            }
        }
    }
}

/// Engines `i` and `j` (`i` < `j`): `i`'s score and Elo over their games, then over their
/// game pairs.
fn pair_text(s: &mut String, config: &MatchConfig, results: &[GameResult], i: usize, j: usize) {
    let scores: Vec<f64> = results
        .iter()
        .filter(|r| r.score_of(j).is_some())
        .filter_map(|r| r.score_of(i))
        .collect();
    match stats::elo_estimate(&scores) {
        Some(e) => {
            let _ = writeln!(
                s,
                "E{} vs E{}: {} / {} ({:.1}%), Elo {:+.1} ({})",
                i + 1,
                j + 1,
                scores.iter().sum::<f64>(),
                scores.len(),
                100.0 * e.score,
                e.elo,
                interval_text(&e, scores.len(), "games")
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
            "  in {} game pairs (one opening, sides swapped; E{} scored 0/0.5/1/1.5/2 in {p0}/{p1}/{p2}/{p3}/{p4}): Elo {:+.1} ({})",
            pairs.len(),
            i + 1,
            e.elo,
            interval_text(&e, pairs.len(), "game pairs")
        );
    }
}

/// The warning that some games repeat an earlier one move for move, if any do.
fn repeats_warning(s: &mut String, results: &[GameResult]) {
    let repeats = repeated_games(results);
    if repeats.is_empty() {
        return;
    }
    let list: Vec<String> = repeats
        .iter()
        .take(10)
        .map(|(game, earlier)| format!("game {game} = game {earlier}"))
        .collect();
    let more = repeats.len().saturating_sub(10);
    let _ = writeln!(
        s,
        "warning: {} of {} games repeat an earlier game move for move ({}{}): the score counts \
         them as if they were independent; vary the openings (--openings FILE, --opening-plies K \
         with --seed S) or the engines",
        repeats.len(),
        results.len(),
        list.join(", "),
        if more > 0 {
            format!(", and {more} more")
        } else {
            String::new()
        }
    );
    let _ = writeln!(s);
}

/// How the games ended: by reason, the games each side won and the draws.
fn endings_table(s: &mut String, results: &[GameResult]) {
    let mut endings: BTreeMap<&str, [u32; 3]> = BTreeMap::new();
    for r in results {
        let e = endings.entry(r.outcome.reason.name()).or_default();
        match r.outcome.winner {
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
}

/// The adjudicated games in game order, each with its detail (the first few only).
fn adjudications(s: &mut String, results: &[GameResult]) {
    let mut adjudicated: Vec<&GameResult> =
        results.iter().filter(|r| !r.detail.is_empty()).collect();
    adjudicated.sort_by_key(|r| r.index);
    let faults: Vec<String> = adjudicated
        .iter()
        .map(|r| {
            format!(
                "  game {} ({}): {}",
                r.index + 1,
                r.outcome.reason,
                r.detail
            )
        })
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
}

/// The SPRT's state, when the match runs one.
fn sprt_line(s: &mut String, config: &MatchConfig, results: &[GameResult]) {
    let Some(t) = &config.sprt else {
        return;
    };
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

#[cfg(test)]
mod examples {
    //! The examples of this file's documentation, as unit tests: the items they show are
    //! the crate's own, which a doctest (another crate) cannot reach.

    #[test]
    fn repeated_games() {
        use crate::core::outcome::Outcome;
        use crate::tools::matches::reason::MatchReason;
        use crate::tools::matches::records::GameResult;
        use crate::tools::matches::report::repeated_games;
        let game = |index, record: &str| GameResult {
            index,
            attacker: 0,
            defender: 1,
            outcome: Outcome::draw(MatchReason::Unknown),
            detail: String::new(),
            record: record.to_string(),
        };
        let results = [
            game(0, "h1-h3 f8-i8,0,0,Draw"),
            game(1, "h1-h2,0,0,Draw"),
            game(2, "h1-h3 f8-i8,0,0,Draw"),
        ];
        assert_eq!(repeated_games(&results), [(3, 1)]);
    }
}
