//! Runs every case of `tests/data/cases.txt` (a copy of the rules' companion file) under
//! all 8 symmetries of the board. Adding a case is adding a block of text to that file.

use crate::case_file;

#[test]
fn every_rule_case_passes_under_all_symmetries() {
    case_file::run_file(include_str!("data/cases.txt"), "cases.txt", true, |_| {});
}
