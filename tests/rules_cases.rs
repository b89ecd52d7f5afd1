//! Runs every case of `tests/data/cases.txt` (a copy of the rules' companion file) under
//! all 8 symmetries of the board. Adding a case is adding a block of text to that file.

mod case_file;

use case_file::{count_blocks, parse_cases, run};

#[test]
fn every_rule_case_passes_under_all_symmetries() {
    let text = include_str!("data/cases.txt");
    let cases = parse_cases(text);
    // Every block of the file was read: as many cases as `case` lines.
    let blocks = count_blocks(text);
    assert!(blocks > 0, "cases.txt holds no case");
    assert_eq!(cases.len(), blocks, "cases read from cases.txt");
    let mut failures = Vec::new();
    for case in &cases {
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
