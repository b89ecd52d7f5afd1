//! Every `sh` example that runs `hnefi` in the README and in the user's documents
//! (`docs/*.md`; not the experiment log or the history, which record what was run then,
//! with programs from outside the project), run as written: each document's examples in
//! turn, in one directory laid out like a clone (`tests/data`, `docs/nets`,
//! `docs/gauntlets` and an empty `docs/pictures`), by `sh -e`, with the `hnefi` under test
//! first on the `PATH` and the sizes made small (`--games 2`, `--nodes 200`, `--epochs 1`,
//! `--movetime-ms 20`, `--tc 0.05+0.05`, `--move-limit 40`). An example fails the test if
//! it exits non-zero. The few examples that are not run here are listed in [`NOT_RUN`],
//! each with the test that covers it.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// Examples not run here: the document, a text that marks the example, and why.
const NOT_RUN: &[(&str, &str, &str)] = &[
    (
        "README.md",
        "hnefi bot",
        "needs a hnefatafl.org server: tests/bot_server.rs plays the bot on the real one",
    ),
    (
        "docs/analysis.md",
        "hnefi wdl-fit",
        "a fit needs hundreds of games: tests/wdl.rs fits 200 of Brandubh the same way",
    ),
    (
        "docs/bot.md",
        "hnefi bot",
        "needs a hnefatafl.org server: tests/bot_server.rs plays the bot on the real one",
    ),
    (
        "docs/levels.md",
        "level-neighbours.sh",
        "a gauntlet of 1,200 games at 100 ms a move and 80 at a second: hnefi match with \
         levels is tests/levels.rs's",
    ),
];

/// The documents whose examples are not the project's to run now.
const RECORDS: &[&str] = &["docs/experiments.md", "docs/HISTORY.md"];

/// The flags made small, and the value each gets.
const SMALL: &[(&str, &str)] = &[
    ("--games", "2"),
    ("--nodes", "200"),
    ("--epochs", "1"),
    ("--movetime-ms", "20"),
    ("--tc", "0.05+0.05"),
    ("--move-limit", "40"),
];

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `sh` blocks of `text` that run `hnefi`, each with the line it starts on.
fn examples(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut block: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        match &mut block {
            None if line.trim_end() == "```sh" => block = Some((i + 1, String::new())),
            None => {}
            Some(_) if line.starts_with("```") => {
                if let Some((at, body)) = block.take()
                    && body.split_whitespace().any(|w| w == "hnefi")
                {
                    out.push((at, body));
                }
            }
            Some((_, body)) => {
                body.push_str(line);
                body.push('\n');
            }
        }
    }
    out
}

/// `body` with each flag of [`SMALL`] given its small value.
fn made_small(body: &str) -> String {
    let mut out = body.to_string();
    for (flag, value) in SMALL {
        let mut next = String::new();
        let mut rest = out.as_str();
        let pattern = format!("{flag} ");
        while let Some(at) = rest.find(&pattern) {
            let (before, after) = rest.split_at(at + pattern.len());
            next.push_str(before);
            let end = after
                .find(|c: char| c.is_whitespace() || c == '\'' || c == '"')
                .unwrap_or(after.len());
            next.push_str(value);
            rest = &after[end..];
        }
        next.push_str(rest);
        out = next;
    }
    out
}

/// A directory laid out like a clone for the examples of `doc`.
#[cfg(unix)]
fn clone_like(doc: &str) -> PathBuf {
    let name = doc.replace(['/', '.'], "-");
    let dir = common::scratch("doc_examples", &name);
    let link = |from: &str, to: &str| {
        std::os::unix::fs::symlink(repo().join(from), dir.join(to))
            .unwrap_or_else(|e| panic!("link {to}: {e}"));
    };
    std::fs::create_dir_all(dir.join("tests")).expect("tests/");
    std::fs::create_dir_all(dir.join("docs/pictures")).expect("docs/pictures/");
    link("tests/data", "tests/data");
    link("docs/nets", "docs/nets");
    link("docs/gauntlets", "docs/gauntlets");
    dir
}

/// Runs the examples of `doc` (a path from the repository's root) but those of
/// [`NOT_RUN`]; returns how many ran.
#[cfg(unix)]
fn run_examples(doc: &str) -> usize {
    let text = std::fs::read_to_string(repo().join(doc)).unwrap_or_else(|e| panic!("{doc}: {e}"));
    let dir = clone_like(doc);
    let bin_dir = Path::new(common::BIN)
        .parent()
        .expect("the binary's directory");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![bin_dir.to_path_buf()];
    paths.extend(std::env::split_paths(&path));
    let path = std::env::join_paths(paths).expect("PATH");
    let mut ran = 0;
    for (line, body) in examples(&text) {
        let skipped = NOT_RUN
            .iter()
            .any(|(d, mark, _)| *d == doc && body.contains(mark));
        if skipped {
            continue;
        }
        let script = made_small(&body);
        let what = format!("the example of {doc} line {line}");
        let out = common::output_of(
            Command::new("sh")
                .args(["-e", "-c", &script])
                .current_dir(&dir)
                .env("PATH", &path),
            &what,
        );
        assert!(
            out.status.success(),
            "{what} failed ({}):\n{script}\nstdout:\n{}\nstderr:\n{}",
            out.status,
            common::text(&out.stdout),
            common::text(&out.stderr)
        );
        ran += 1;
    }
    let _ = std::fs::remove_dir_all(&dir);
    ran
}

/// The documents with examples to run: the README and `docs/*.md` but [`RECORDS`].
fn documents() -> Vec<String> {
    let mut docs = vec!["README.md".to_string()];
    let entries = std::fs::read_dir(repo().join("docs")).expect("docs/");
    let mut more: Vec<String> = entries
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .filter(|d| !RECORDS.contains(&d.as_str()))
        .collect();
    more.sort();
    docs.extend(more);
    docs
}

#[test]
fn the_reader_finds_examples_and_makes_them_small() {
    let text = "a\n```sh\nhnefi match --games 20 --engine 'hnefi --movetime-ms 250'\n```\n\
                ```sh\ncargo test\n```\n```text\nhnefi\n```\n";
    let found = examples(text);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0, 2);
    assert_eq!(
        made_small(&found[0].1),
        "hnefi match --games 2 --engine 'hnefi --movetime-ms 20'\n"
    );
    assert_eq!(
        made_small("--tc 15+10 --games-x 3"),
        "--tc 0.05+0.05 --games-x 3"
    );
}

#[test]
fn every_example_not_run_here_is_still_in_its_document() {
    for (doc, mark, why) in NOT_RUN {
        let text = std::fs::read_to_string(repo().join(doc)).expect("document");
        assert!(
            examples(&text).iter().any(|(_, b)| b.contains(mark)),
            "{doc} has no example with {mark:?} ({why}): remove it from NOT_RUN"
        );
    }
}

#[cfg(unix)]
#[test]
fn the_readme_examples_run() {
    assert!(run_examples("README.md") >= 2);
}

#[cfg(unix)]
#[test]
fn the_docs_examples_run() {
    let mut ran = 0;
    for doc in documents().iter().filter(|d| *d != "README.md") {
        ran += run_examples(doc);
    }
    assert!(ran >= 10, "{ran} examples ran");
}
