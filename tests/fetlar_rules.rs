//! The `fetlar` rule set (docs/RULES.md section 14): every case of
//! `tests/data/fetlar_cases.txt` under the 8 symmetries of the board.

use crate::case_file;

use hnefi::core::preset::RulePreset;

#[test]
fn every_fetlar_case_passes_under_all_symmetries() {
    let fetlar = RulePreset::Fetlar.rules();
    case_file::run_file(
        include_str!("data/fetlar_cases.txt"),
        "fetlar_cases.txt",
        true,
        |case| assert_eq!(case.rules, fetlar, "{}: rules", case.id),
    );
}
