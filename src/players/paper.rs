//! The Fetlar strategy study's own results (its section 6, Tables 3 to 7: each attacking
//! strategy and Random against each defending strategy and Random, 10 games a pairing),
//! copied here so that `hnefi study` can set hnefi's numbers beside them; the paper itself
//! (the project's design document `seeds/fetlar-strategies-paper.txt`, a text extraction of
//! the PDF, kept outside this repository) is not read by the code.
//!
//! Where the extraction is garbled or the paper disagrees with itself, the numbers here
//! are the attackers' tables (3 to 7), which add up to the summary (Table 14):
//! - Tables 4, 5 and 6 lost their column layout in the extraction; their rows are
//!   rebuilt from the defenders' tables (8 to 13) and checked against Table 14's totals.
//! - Table 8 (Defensive) gives Aggressive 10 wins, 0 losses, 6 unfinished (16 games) where
//!   Table 3 gives Defensive 10 wins (of 10), and Barricading - Cordon 2 unfinished where
//!   Table 5 and Table 14 give 4; Tables 3 and 5 are followed.
//! - Table 10 (Fortification) gives Barricading - Aggressive "100" ties: 10 (Table 4).

/// One pairing's result in the paper, from the attackers' side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PaperCell {
    /// The attackers' wins.
    pub(crate) wins: u64,
    /// The attackers' losses (the defenders' wins).
    pub(crate) losses: u64,
    /// Ties (the paper counts a fort built and held).
    pub(crate) ties: u64,
    /// Games still on at the 1000-round cut-off.
    pub(crate) unfinished: u64,
    /// The average length of the finished games in the paper's "turns", `None` when no
    /// game finished.
    pub(crate) average: Option<f64>,
}

const fn cell(wins: u64, losses: u64, ties: u64, unfinished: u64, average: f64) -> PaperCell {
    PaperCell {
        wins,
        losses,
        ties,
        unfinished,
        average: Some(average),
    }
}

/// A pairing where no game finished (Fortification's ties).
const NONE_FINISHED: PaperCell = PaperCell {
    wins: 0,
    losses: 0,
    ties: 10,
    unfinished: 0,
    average: None,
};

/// The games a pairing had in the paper.
pub(crate) const GAMES: u64 = 10;

/// `PAPER[a][d]`: attackers in the order of [`super::study::ATTACKERS`] (Aggressive,
/// Barricading - Aggressive, Barricading - Cordon, King Centered, Random), defenders in
/// that of [`super::study::DEFENDERS`] (Defensive, Foot-in-the-Door, Fortification,
/// King's Guard, Mobile King, Random).
pub(crate) const PAPER: [[PaperCell; 6]; 5] = [
    // Table 3: Aggressive.
    [
        cell(0, 10, 0, 0, 34.0),
        cell(5, 5, 0, 0, 31.0),
        cell(1, 0, 9, 0, 42.0),
        cell(0, 10, 0, 0, 17.0),
        cell(9, 1, 0, 0, 14.0),
        cell(9, 1, 0, 0, 47.0),
    ],
    // Table 4: Barricading - Aggressive.
    [
        cell(2, 6, 0, 2, 74.0),
        cell(0, 10, 0, 0, 17.0),
        NONE_FINISHED,
        cell(0, 10, 0, 0, 17.0),
        cell(0, 10, 0, 0, 15.0),
        cell(10, 0, 0, 0, 128.4),
    ],
    // Table 5: Barricading - Cordon.
    [
        cell(2, 4, 0, 4, 112.0),
        cell(0, 10, 0, 0, 17.0),
        NONE_FINISHED,
        cell(0, 10, 0, 0, 17.0),
        cell(0, 10, 0, 0, 14.0),
        cell(10, 0, 0, 0, 364.4),
    ],
    // Table 6: King Centered.
    [
        cell(7, 3, 0, 0, 48.4),
        cell(2, 7, 1, 0, 34.6),
        cell(10, 0, 0, 0, 44.6),
        cell(0, 8, 2, 0, 34.0),
        cell(1, 9, 0, 0, 33.1),
        cell(10, 0, 0, 0, 81.1),
    ],
    // Table 7: Random (attacking).
    [
        cell(0, 10, 0, 0, 124.2),
        cell(0, 10, 0, 0, 20.8),
        NONE_FINISHED,
        cell(0, 10, 0, 0, 15.2),
        cell(0, 10, 0, 0, 13.6),
        cell(0, 8, 0, 2, 522.0),
    ],
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Table 14's totals (wins, losses, ties, unfinished) of each attacker.
    #[test]
    fn the_rows_add_up_to_table_14() {
        let table_14 = [
            (24, 27, 9, 0),
            (12, 36, 10, 2),
            (12, 34, 10, 4),
            (30, 27, 3, 0),
            (0, 48, 10, 2),
        ];
        for (row, want) in PAPER.iter().zip(table_14) {
            let got = row.iter().fold((0, 0, 0, 0), |t, c| {
                (
                    t.0 + c.wins,
                    t.1 + c.losses,
                    t.2 + c.ties,
                    t.3 + c.unfinished,
                )
            });
            assert_eq!(got, want);
            for c in row {
                assert_eq!(c.wins + c.losses + c.ties + c.unfinished, GAMES);
            }
        }
        // The defenders' totals, Table 14: Defensive 33-11-0-6, Foot-in-the-Door 42-7-1-0,
        // Fortification 0-11-39-0, King's Guard 48-0-2-0, Mobile King 40-10-0-0,
        // Random (defender) 9-39-0-2 (the defenders' wins are the attackers' losses).
        let defenders = [
            (33, 11, 0, 6),
            (42, 7, 1, 0),
            (0, 11, 39, 0),
            (48, 0, 2, 0),
            (40, 10, 0, 0),
            (9, 39, 0, 2),
        ];
        for (d, want) in defenders.into_iter().enumerate() {
            let got = PAPER
                .iter()
                .filter_map(|row| row.get(d))
                .fold((0, 0, 0, 0), |t, c| {
                    (
                        t.0 + c.losses,
                        t.1 + c.wins,
                        t.2 + c.ties,
                        t.3 + c.unfinished,
                    )
                });
            assert_eq!(got, want, "defender {d}");
        }
    }
}
