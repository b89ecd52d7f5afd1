//! Game pairs: the two games of one opening with the sides swapped, the unit of the
//! pentanomial statistics, and what the SPRT counts.

use super::config::MatchConfig;
use super::records::GameResult;

/// E`i`'s mean score in each complete game pair against E`j`: two games of the schedule
/// in a row, from the same opening, with the sides swapped.
pub(crate) fn pair_means(
    config: &MatchConfig,
    results: &[GameResult],
    i: usize,
    j: usize,
) -> Vec<f64> {
    let games: Vec<&GameResult> = results
        .iter()
        .filter(|r| r.score_of(i).is_some() && r.score_of(j).is_some())
        .collect();
    let opening = |r: &GameResult| config.schedule.get(r.index).map(|g| &g.opening);
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
pub(crate) fn sprt_units(config: &MatchConfig, results: &[GameResult]) -> (Vec<f64>, &'static str) {
    let meetings = config
        .schedule
        .iter()
        .filter(|g| matches!((g.attacker, g.defender), (0, 1) | (1, 0)))
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
