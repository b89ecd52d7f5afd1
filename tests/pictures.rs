//! Pictures (issue 62): `hnefi picture`'s SVG parses as XML and draws every piece of the
//! position, the restricted squares of the game's rules, the last move and its captures;
//! bad input is named and writes nothing; `hnefi annotate --graph`'s SVG parses and has a
//! point a ply for each side; the pictures of README.md are what its commands draw.

use std::path::{Path, PathBuf};
use std::process::Command;

use hnefi::core::any_game::AnyGame;
use hnefi::core::geometry::BoardSize;
use hnefi::core::rules_source::RulesSource;

use crate::common;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Runs `hnefi ARGS` in the crate's directory: (exit code, stdout, stderr).
fn hnefi(args: &[&str]) -> (Option<i32>, String, String) {
    let out = common::output_of(
        Command::new(common::BIN).args(args).current_dir(ROOT),
        &format!("hnefi {}", args.join(" ")),
    );
    (
        out.status.code(),
        common::text(&out.stdout),
        common::text(&out.stderr),
    )
}

/// The value of `name` of the elements of `doc` of tag `tag`, one a element that has it.
fn attributes<'a>(doc: &'a roxmltree::Document, tag: &str, name: &str) -> Vec<&'a str> {
    doc.descendants()
        .filter(|n| n.has_tag_name(tag))
        .filter_map(|n| n.attribute(name))
        .collect()
}

/// The squares named by `data-square` of the `<g>` elements of class `class`, sorted.
fn squares_of(doc: &roxmltree::Document, class: &str) -> Vec<String> {
    let mut squares: Vec<String> = doc
        .descendants()
        .filter(|n| n.has_tag_name("g") && n.attribute("class") == Some(class))
        .filter_map(|n| n.attribute("data-square").map(str::to_string))
        .collect();
    squares.sort();
    squares
}

/// The game `hnefi picture` draws for `rules`, `size` and `moves`, replayed here.
fn game(rules: &str, size: Option<BoardSize>, moves: &str) -> AnyGame {
    let source: RulesSource = rules.parse().unwrap();
    let variant = source
        .variant(size.unwrap_or_else(|| source.usual_size()))
        .unwrap();
    AnyGame::from_record(&variant, moves, variant.rules()).unwrap()
}

/// A picture to draw: rules, board, moves; the last move, its captures and the restricted
/// squares it shows.
type Case<'a> = (
    &'a str,
    Option<&'a str>,
    &'a str,
    Option<&'a str>,
    &'a [&'a str],
    &'a [&'a str],
);

#[test]
fn the_position_parses_as_xml_and_draws_every_piece_the_restricted_squares_and_the_last_move() {
    let dir = common::scratch("pictures", "position");
    let cases: [Case; 4] = [
        (
            "copenhagen",
            None,
            "d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2",
            Some("g3-e3"),
            &["e2"],
            &["a1", "a11", "f6", "k1", "k11"],
        ),
        (
            "brandubh",
            None,
            "",
            None,
            &[],
            &["a1", "a7", "d4", "g1", "g7"],
        ),
        (
            "tablut",
            Some("15"),
            "f1-f3",
            Some("f1-f3"),
            &[],
            // OpenTafl's 15x15 Tablut has a throne and no corners.
            &["h8"],
        ),
        (
            "copenhagen",
            Some("7"),
            // The defenders move first.
            "d3-a3",
            Some("d3-a3"),
            &[],
            &["a1", "a7", "d4", "g1", "g7"],
        ),
    ];
    for (i, (rules, size, moves, last, captured, restricted)) in cases.into_iter().enumerate() {
        let out = dir.join(format!("{i}.svg"));
        let mut args = vec!["picture", "--rules", rules, "--moves", moves];
        if let Some(size) = size {
            args.extend(["--board-size", size]);
        }
        let out_text = out.display().to_string();
        args.extend(["--out", &out_text]);
        let (code, stdout, err) = hnefi(&args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert!(stdout.is_empty(), "{stdout}");
        let text = std::fs::read_to_string(&out).unwrap();
        let doc = roxmltree::Document::parse(&text)
            .unwrap_or_else(|e| panic!("{args:?}: not XML ({e}):\n{text}"));
        assert!(doc.root_element().has_tag_name("svg"));
        let g = game(rules, size.map(|s| s.parse().unwrap()), moves);
        let diagram = g.diagram();
        for (class, letter) in [
            ("piece attacker", 'X'),
            ("piece defender", 'O'),
            ("piece king", 'K'),
        ] {
            let drawn = squares_of(&doc, class);
            let on_board = diagram.chars().filter(|&c| c == letter).count();
            assert_eq!(drawn.len(), on_board, "{args:?}: {class}");
            for sq in &drawn {
                let sq = hnefi::core::any_square::AnySquare::parse(sq, g.size()).unwrap();
                let role = g.role_at(sq).map(|r| r.to_string());
                let want = if class == "piece attacker" {
                    "attacker"
                } else {
                    "defender"
                };
                assert_eq!(role.as_deref(), Some(want), "{args:?}: {class} on {sq}");
            }
        }
        assert_eq!(squares_of(&doc, "piece king"), [g.king().to_string()]);
        let moved: Vec<&str> = doc
            .descendants()
            .filter(|n| n.has_tag_name("g") && n.attribute("class") == Some("last-move"))
            .filter_map(|n| n.attribute("data-move"))
            .collect();
        assert_eq!(moved, last.as_slice(), "{args:?}: the last move");
        assert_eq!(squares_of(&doc, "captured"), captured, "{args:?}: captures");
        let mut shaded: Vec<&str> = doc
            .descendants()
            .filter(|n| n.has_tag_name("rect") && n.attribute("class") == Some("restricted"))
            .filter_map(|n| n.attribute("data-square"))
            .collect();
        shaded.sort();
        assert_eq!(shaded, restricted, "{args:?}: restricted squares");
        // Every square of the board is drawn, and a letter for every file.
        let files = usize::from(g.size().files());
        let squares = doc
            .descendants()
            .filter(|n| n.has_tag_name("g") && n.attribute("class") == Some("squares"))
            .flat_map(|n| n.children().filter(|c| c.has_tag_name("rect")))
            .count();
        assert_eq!(squares, files * files, "{args:?}");
        let texts = attributes(&doc, "text", "text-anchor").len();
        assert_eq!(texts, 2 * files, "{args:?}: file letters and rank numbers");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_attackers_forts_are_drawn_in_a_shade_of_their_own() {
    // OpenTafl's Foteviken Tablut: sixteen fort squares (`afor`), a throne, no corners.
    let rules = "dim:9 name:Foteviken_Tablut esc:e atkf:y nj:n cor: afor:a4,a5,a6,b5,d1,e1,f1,e2,i4,i5,i6,h5,d9,e9,f9,e8, cenp:tcnkTCNK aforp:tcnkTCNK cens: cenh: cenhe:K aforh:K cenre: aforre: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
    let (code, out, err) = hnefi(&["picture", "--rules", rules]);
    assert_eq!(code, Some(0), "{err}");
    let doc = roxmltree::Document::parse(&out).unwrap();
    let shaded = |class: &str| {
        let mut squares: Vec<&str> = doc
            .descendants()
            .filter(|n| n.has_tag_name("rect") && n.attribute("class") == Some(class))
            .filter_map(|n| n.attribute("data-square"))
            .collect();
        squares.sort();
        squares
    };
    let mut forts = [
        "a4", "a5", "a6", "b5", "d1", "e1", "f1", "e2", "i4", "i5", "i6", "h5", "d9", "e9", "f9",
        "e8",
    ];
    forts.sort();
    assert_eq!(shaded("fort"), forts);
    assert_eq!(shaded("restricted"), ["e5"]);
    // The soldiers on the forts are drawn over them.
    assert_eq!(squares_of(&doc, "piece attacker").len(), 16);
}

#[test]
fn a_position_string_with_moves_and_stdout() {
    // The king on the throne, a defender on d6 between an empty c6 and an attacker on e6:
    // b6-c6 captures it.
    let otn = "/11/11/11/11/11/1t1TtK5/11/11/11/11/11/";
    let (code, out, err) = hnefi(&[
        "picture",
        "--position",
        otn,
        "--to-move",
        "attacker",
        "--moves",
        "b6-c6",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let doc = roxmltree::Document::parse(&out).unwrap();
    assert_eq!(squares_of(&doc, "captured"), ["d6"]);
    assert_eq!(squares_of(&doc, "piece attacker"), ["c6", "e6"]);
    assert!(squares_of(&doc, "piece defender").is_empty());
    assert_eq!(squares_of(&doc, "piece king"), ["f6"]);
}

#[test]
fn bad_input_is_named_writes_nothing_and_fails() {
    let dir = common::scratch("pictures", "bad-input");
    let out = dir.join("board.svg");
    let out_text = out.display().to_string();
    for (args, named) in [
        (
            vec!["--moves", "d1-d3 d3-d4"],
            "ply 2 (d3-d4): no defender piece on d3",
        ),
        (vec!["--moves", "d1-d3 e5-q2"], "ply 2 (e5-q2)"),
        (vec!["--moves", "d1-d3 e5e2"], "ply 2 (e5e2)"),
        (vec!["--moves", "d1-d3 e5-e2xe9"], "ply 2 (e5-e2xe9)"),
        (vec!["--rules", "chess"], "invalid rules 'chess'"),
        (vec!["--rules", "fetlar", "--board-size", "7"], "7x7"),
        (vec!["--position", "/3t3/"], "--position"),
    ] {
        let mut all = vec!["picture", "--out", &out_text];
        all.extend(&args);
        let (code, stdout, err) = hnefi(&all);
        assert_ne!(code, Some(0), "{all:?}");
        assert!(err.contains(named), "{all:?}: {err}");
        assert!(stdout.is_empty(), "{all:?}: {stdout}");
        assert!(!out.exists(), "{all:?} wrote {}", out.display());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The colours of the attackers' and the defenders' lines (src/tools/picture/graph.rs).
const SIDES: [&str; 2] = ["#262626", "#2F6DB5"];

/// Whether `doc` draws each side's line with `n` points: a `<polyline>` of its colour
/// through `n` points (the legend's is a short one of two) and a `<circle>` on each.
fn has_lines_of(doc: &roxmltree::Document, n: usize) -> bool {
    SIDES.iter().all(|colour| {
        let of_colour = |tag| {
            doc.descendants()
                .filter(move |e| e.has_tag_name(tag) && e.attribute("stroke") == Some(colour))
        };
        let line = of_colour("polyline")
            .filter_map(|e| e.attribute("points"))
            .any(|p| p.split_whitespace().count() == n);
        line && of_colour("circle").count() == n
    })
}

#[test]
fn the_graph_has_a_point_a_ply_for_each_side() {
    let dir = common::scratch("pictures", "graph");
    let graph = dir.join("evaluation.svg");
    let graph_text = graph.display().to_string();
    let (code, out, err) = hnefi(&[
        "annotate",
        "--depth",
        "2",
        "tests/data/annotate-blunder.txt",
        "--graph",
        &graph_text,
    ]);
    assert_eq!(code, Some(0), "{err}");
    let ply_lines: Vec<&str> = out
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    let plies = ply_lines.len();
    assert_eq!(plies, 14, "{out}");
    let text = std::fs::read_to_string(&graph).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    assert!(has_lines_of(&doc, plies), "one line a side:\n{text}");
    assert_eq!(attributes(&doc, "circle", "cx").len(), 2 * plies);
    let judged = ply_lines
        .iter()
        .filter(|l| l.ends_with("inaccuracy") || l.ends_with("mistake") || l.ends_with("blunder"))
        .count();
    let words = doc
        .descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .filter(|t| matches!(t.trim(), "inaccuracy" | "mistake" | "blunder"))
        .count();
    assert_eq!(words, judged, "each judged move named");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_graph_of_several_games_needs_the_game_number_in_its_name() {
    let dir = common::scratch("pictures", "graphs");
    let games = dir.join("games.txt");
    std::fs::write(&games, "h1-h3 f8-i8\nd1-d3 e5-e2 g1-g3\n").unwrap();
    let games_text = games.display().to_string();
    let one = dir.join("graph.svg").display().to_string();
    let (code, out, err) = hnefi(&["annotate", "--depth", "1", &games_text, "--graph", &one]);
    assert_eq!(code, Some(2), "{out}");
    assert!(err.contains("{n}"), "{err}");
    assert!(out.is_empty() && !Path::new(&one).exists());
    let each = dir.join("graph-{n}.svg").display().to_string();
    let (code, _, err) = hnefi(&["annotate", "--depth", "1", &games_text, "--graph", &each]);
    assert_eq!(code, Some(0), "{err}");
    for (n, plies) in [(1, 2), (2, 3)] {
        let text = std::fs::read_to_string(dir.join(format!("graph-{n}.svg"))).unwrap();
        let doc = roxmltree::Document::parse(&text).unwrap();
        assert!(has_lines_of(&doc, plies), "game {n}:\n{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The ```sh block of `doc` (a file of the crate) that starts with `hnefi picture`.
fn picture_block(doc: &str) -> String {
    let text = std::fs::read_to_string(Path::new(ROOT).join(doc)).unwrap();
    text.split("```sh\n")
        .filter_map(|b| b.split_once("```").map(|(block, _)| block.to_string()))
        .find(|t| t.starts_with("hnefi picture "))
        .unwrap_or_else(|| panic!("a ```sh block of hnefi picture in {doc}"))
}

/// The commands of README.md's pictures: its ```sh block of `hnefi picture` and `hnefi
/// annotate --graph` lines, each with its words and the file it writes.
fn readme_commands() -> Vec<(String, Vec<String>, PathBuf)> {
    picture_block("README.md")
        .replace("\\\n", " ")
        .lines()
        .map(|line| {
            let words = shlex::split(line).unwrap_or_else(|| panic!("unquoted: {line}"));
            let out = words
                .iter()
                .position(|w| w == "--out" || w == "--graph")
                .and_then(|i| words.get(i + 1))
                .unwrap_or_else(|| panic!("{line}: no --out or --graph"));
            let out = PathBuf::from(out);
            (line.to_string(), words, out)
        })
        .collect()
}

#[test]
fn the_readme_pictures_are_what_its_commands_draw() {
    let dir = common::scratch("pictures", "readme");
    assert_eq!(
        picture_block("docs/analysis.md"),
        picture_block("README.md"),
        "docs/analysis.md gives the README's commands"
    );
    let commands = readme_commands();
    assert_eq!(commands.len(), 2, "a position and a graph");
    for (line, words, committed) in commands {
        assert_eq!(words[0], "hnefi");
        assert!(
            readme_mentions(&committed),
            "README.md shows {}",
            committed.display()
        );
        let fresh = dir.join(committed.file_name().unwrap());
        let fresh_text = fresh.display().to_string();
        let args: Vec<&str> = words[1..]
            .iter()
            .map(|w| {
                if Path::new(w) == committed {
                    fresh_text.as_str()
                } else {
                    w.as_str()
                }
            })
            .collect();
        let (code, _, err) = hnefi(&args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        let want = std::fs::read(Path::new(ROOT).join(&committed)).unwrap();
        let got = std::fs::read(&fresh).unwrap();
        assert!(
            want == got,
            "{} is not what `{}` draws now: run it again and commit the file",
            committed.display(),
            line
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether README.md shows the picture `file` (an image link to it).
fn readme_mentions(file: &Path) -> bool {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    readme.contains(&format!("]({})", file.display()))
}

#[test]
fn show_board_in_a_pipe_is_the_plain_diagram() {
    let (ok, out, err) = common::run_text(&[], "play attacker d1 d3\nshow_board\nquit\n");
    assert!(ok, "{err}");
    assert!(!out.contains('\u{1b}'), "{out:?}");
    assert!(out.contains("=\n11  . . . X X X X X . . .\n10  . . . . . X . . . . .\n"));
    assert!(
        out.contains(" 1  . . . . X X X X . . .\n    a b c d e f g h i j k\ndefender to move\n")
    );
}
