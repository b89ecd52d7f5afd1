//! `hnefi wdl-fit` on self-play samples through the real binary (docs/analysis.md, "Win,
//! draw and loss"): each game fitted, judged on its held-out games, and its table line.

use crate::common;

#[test]
fn wdl_fit_fits_a_self_play_run_and_prints_its_table_line() {
    let dir = common::scratch("wdl", "fit");
    let samples = dir.join("brandubh.txt");
    let samples = samples.to_str().unwrap();
    let (ok, _, err) = common::run_text(
        &[
            "selfplay",
            "--games",
            "200",
            "--nodes",
            "400",
            "--random-plies",
            "4",
            "--seed",
            "5",
            "--rules",
            "brandubh",
            "--out",
            samples,
        ],
        "",
    );
    assert!(ok, "{err}");
    let (ok, out, err) = common::run_text(&["wdl-fit", samples], "");
    assert!(ok, "{err}");
    assert!(out.starts_with("brandubh 7x7: "), "{out}");
    assert!(out.contains("held out: log-loss "), "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("    (RulePreset::Brandubh, BoardSize::S7, model(t(")),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn wdl_fit_names_a_file_it_cannot_read_and_a_game_it_cannot_fit() {
    let (ok, _, err) = common::run_text(&["wdl-fit", "no-such-file.txt"], "");
    assert!(!ok);
    assert!(err.contains("no-such-file.txt"), "{err}");
    let dir = common::scratch("wdl", "one-sided");
    let file = dir.join("s.txt");
    // Two positions of games the defenders won: nothing to tell the results apart by.
    let line = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ defender defenders 12 1 hnefatafl-org 7";
    std::fs::write(&file, format!("{line}\n{line}\n")).unwrap();
    let (ok, out, err) = common::run_text(&["wdl-fit", file.to_str().unwrap()], "");
    assert!(!ok);
    assert!(
        err.contains("hnefatafl-org 7x7: too few results"),
        "{out} {err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
