//! The `fetlar` rule set (docs/RULES.md section 14): every case of
//! `tests/data/fetlar_cases.txt` under the 8 symmetries of the board.

mod case_file;

use case_file::{count_blocks, parse_cases, run};
use hnefi::core::preset::RulePreset;

#[test]
fn every_fetlar_case_passes_under_all_symmetries() {
    let text = include_str!("data/fetlar_cases.txt");
    let cases = parse_cases(text);
    let blocks = count_blocks(text);
    assert!(blocks > 0, "fetlar_cases.txt holds no case");
    assert_eq!(cases.len(), blocks, "cases read");
    let fetlar = RulePreset::Fetlar.rules();
    let mut failures = Vec::new();
    for case in &cases {
        assert_eq!(case.rules, fetlar, "{}: rules", case.id);
        for sym in 0..8 {
            if let Err(e) = run(case, sym) {
                failures.push(format!("{} (symmetry {sym}): {e}", case.id));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
